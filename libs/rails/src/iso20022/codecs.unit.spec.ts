import { describe, expect, it } from '@jest/globals';
import {
  readNotification,
  readPain001,
  readPain008,
  readStatement,
  readStatusReport,
  writeNotification,
  writePain001,
  writePain008,
  writeStatement,
  writeStatusReport,
} from './index.js';
import { notification, pain001, pain008, statement, statusReport } from './samples.fixtures.js';
import { count, nth, validateAgainstXsd, xpath } from './xmllint.fixtures.js';

/** Every file a writer produces: valid against ISO's XSD, read back by xmllint's XPath, round-tripped. */
describe('ISO 20022 writers', () => {
  describe('pain.001.001.09', () => {
    const xml = writePain001(pain001);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, 'pain.001.001.09')).toEqual({ ok: true, output: expect.any(String) });
    });

    it('reads back with xmllint: ids, amounts, currencies, counts, accounts', () => {
      expect(xpath(xml, 'namespace-uri(/*)')).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
      expect(nth(xml, 'MsgId')).toBe('PO-20261128-0001');
      expect(nth(xml, 'NbOfTxs')).toBe('3');
      expect(nth(xml, 'CtrlSum')).toBe('1001234.57');
      expect(count(xml, 'PmtInf')).toBe(2);
      expect(count(xml, 'CdtTrfTxInf')).toBe(3);
      expect(nth(xml, 'PmtMtd')).toBe('TRF');
      expect(nth(xml, 'EndToEndId', 1)).toBe('E2E-EUR-1');
      expect(nth(xml, 'InstdAmt', 1)).toBe('1234.56');
      expect(nth(xml, 'InstdAmt', 2)).toBe('0.01');
      expect(nth(xml, 'InstdAmt', 3)).toBe('1000000.00');
      expect(xpath(xml, "string((//*[local-name()='InstdAmt'])[3]/@Ccy)")).toBe('USD');
      expect(nth(xml, 'Ustrd', 1)).toBe('Invoice 2026-0042 <paid>');
      expect(xpath(xml, "string((//*[local-name()='CdtrAcct'])[3]//*[local-name()='Othr']/*[local-name()='Id'])")).toBe(
        '987654321',
      );
      expect(xpath(xml, "string((//*[local-name()='CdtrAgt'])[2]//*[local-name()='MmbId'])")).toBe('026009593');
      expect(xpath(xml, "string((//*[local-name()='DbtrAgt'])[1]//*[local-name()='BICFI'])")).toBe('COBADEFFXXX');
      expect(xpath(xml, "string((//*[local-name()='ReqdExctnDt'])[1]/*[local-name()='Dt'])")).toBe('2026-11-30');
    });

    it('round-trips', () => {
      expect(readPain001(xml)).toEqual(pain001);
    });
  });

  describe('pain.008.001.08', () => {
    const xml = writePain008(pain008);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, 'pain.008.001.08').ok).toBe(true);
    });

    it('reads back with xmllint', () => {
      expect(xpath(xml, 'namespace-uri(/*)')).toBe('urn:iso:std:iso:20022:tech:xsd:pain.008.001.08');
      expect(nth(xml, 'NbOfTxs')).toBe('3');
      expect(nth(xml, 'CtrlSum')).toBe('2560.98');
      expect(nth(xml, 'PmtMtd')).toBe('DD');
      expect(count(xml, 'DrctDbtTxInf')).toBe(3);
      expect(nth(xml, 'EndToEndId', 2)).toBe('COL-2');
      expect(nth(xml, 'InstdAmt', 2)).toBe('2500.00');
      expect(nth(xml, 'MndtId', 1)).toBe('MANDATE-1');
      expect(nth(xml, 'DtOfSgntr', 3)).toBe('2026-03-03');
      expect(nth(xml, 'ReqdColltnDt')).toBe('2026-12-02');
      expect(xpath(xml, "string(//*[local-name()='CdtrSchmeId']//*[local-name()='Othr']/*[local-name()='Id'])")).toBe(
        'DE98ZZZ09999999999',
      );
      expect(xpath(xml, "string((//*[local-name()='DbtrAcct'])[3]//*[local-name()='Othr']/*[local-name()='Id'])")).toBe(
        '987654321',
      );
    });

    it('round-trips', () => {
      expect(readPain008(xml)).toEqual(pain008);
    });
  });

  describe('pain.002.001.10', () => {
    const xml = writeStatusReport(statusReport);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, 'pain.002.001.10').ok).toBe(true);
    });

    it('reads back with xmllint', () => {
      expect(nth(xml, 'OrgnlMsgId')).toBe('PO-20261128-0001');
      expect(nth(xml, 'OrgnlMsgNmId')).toBe('pain.001.001.09');
      expect(nth(xml, 'GrpSts')).toBe('PART');
      expect(count(xml, 'TxInfAndSts')).toBe(3);
      expect(count(xml, 'OrgnlPmtInfAndSts')).toBe(2);
      expect(nth(xml, 'OrgnlEndToEndId', 2)).toBe('E2E-EUR-2');
      expect(nth(xml, 'TxSts', 2)).toBe('RJCT');
      expect(nth(xml, 'Cd')).toBe('AC04');
    });

    it('round-trips, and a duplicate-file group rejection too', () => {
      expect(readStatusReport(xml)).toEqual(statusReport);
      const duplicate = {
        ...statusReport,
        groupStatus: 'RJCT',
        groupReasonCode: 'DU01',
        groupAdditionalInformation: 'Duplicate message id',
        transactions: [],
      };
      const dupXml = writeStatusReport(duplicate);
      expect(validateAgainstXsd(dupXml, 'pain.002.001.10').ok).toBe(true);
      expect(count(dupXml, 'TxInfAndSts')).toBe(0);
      expect(readStatusReport(dupXml)).toEqual(duplicate);
    });
  });

  describe('camt.054.001.08', () => {
    const xml = writeNotification(notification);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, 'camt.054.001.08').ok).toBe(true);
    });

    it('reads back with xmllint: entries, return reason, counterparties', () => {
      expect(count(xml, 'Ntry')).toBe(3);
      expect(nth(xml, 'NtryRef', 2)).toBe('N2');
      expect(xpath(xml, "string((//*[local-name()='Ntry'])[1]/*[local-name()='Amt'])")).toBe('1234.56');
      expect(xpath(xml, "string((//*[local-name()='Ntry'])[1]/*[local-name()='CdtDbtInd'])")).toBe('DBIT');
      expect(xpath(xml, "string((//*[local-name()='Ntry'])[3]/*[local-name()='Sts']/*)")).toBe('PDNG');
      expect(xpath(xml, "string(//*[local-name()='RtrInf']//*[local-name()='Cd'])")).toBe('AC06');
      expect(xpath(xml, "string((//*[local-name()='Ntry'])[2]//*[local-name()='EndToEndId'])")).toBe('E2E-EUR-2');
      expect(xpath(xml, "string(//*[local-name()='Acct']/*[local-name()='Ccy'])")).toBe('EUR');
      expect(
        xpath(xml, "string((//*[local-name()='Ntry'])[1]//*[local-name()='CdtrAcct']//*[local-name()='IBAN'])"),
      ).toBe('FR1420041010050500013M02606');
    });

    it('round-trips', () => {
      expect(readNotification(xml)).toEqual(notification);
    });
  });

  describe('camt.053.001.08', () => {
    const xml = writeStatement(statement);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, 'camt.053.001.08').ok).toBe(true);
    });

    it('reads back with xmllint: balances and entries', () => {
      expect(count(xml, 'Bal')).toBe(2);
      expect(xpath(xml, "string((//*[local-name()='Bal'])[1]//*[local-name()='Cd'])")).toBe('OPBD');
      expect(xpath(xml, "string((//*[local-name()='Bal'])[1]/*[local-name()='Amt'])")).toBe('50.00');
      expect(xpath(xml, "string((//*[local-name()='Bal'])[1]/*[local-name()='CdtDbtInd'])")).toBe('DBIT');
      expect(xpath(xml, "string((//*[local-name()='Bal'])[2]/*[local-name()='Amt'])")).toBe('999950.00');
      expect(xpath(xml, "string(//*[local-name()='Acct']//*[local-name()='Othr']/*[local-name()='Id'])")).toBe(
        '000123456789',
      );
      expect(count(xml, 'Ntry')).toBe(1);
    });

    it('round-trips', () => {
      expect(readStatement(xml)).toEqual(statement);
    });
  });

  it('refuses to write what ISO 20022 cannot carry', () => {
    const bad = (amount: { minor: bigint; currency: string }) =>
      writePain001({
        ...pain001,
        payments: [{ ...pain001.payments[0], transfers: [{ ...pain001.payments[0].transfers[0], amount }] }],
      });
    expect(() => bad({ minor: -1n, currency: 'EUR' })).toThrow(/non-negative/);
    expect(() => bad({ minor: 1n, currency: 'USDC' })).toThrow(/3-letter/);
    expect(() => bad({ minor: 1n, currency: 'BTC' })).toThrow(/8 decimals/);
    const transfer = pain001.payments[0].transfers[0];
    const withTransfer = (t: typeof transfer) =>
      writePain001({ ...pain001, payments: [{ ...pain001.payments[0], transfers: [t] }] });
    expect(() => withTransfer({ ...transfer, endToEndId: 'E'.repeat(36) })).toThrow(/must be 1 to 35 characters/);
    expect(() => withTransfer({ ...transfer, remittanceInformation: 'r'.repeat(141) })).toThrow(/RmtInf\/Ustrd/);
    expect(() => writePain001({ ...pain001, payments: [] })).toThrow(/at least one payment/);
    expect(() => writePain008({ ...pain008, payments: [{ ...pain008.payments[0], collections: [] }] })).toThrow(
      /at least one payment/,
    );
  });
});
