import { describe, expect, it } from '@jest/globals';
import { CODECS, written } from './codecs.fixtures.js';
import { MessageType, readStatusReport, writePain001, writePain008, writeStatusReport } from './index.js';
import { pain001, pain008, statusReport } from './samples.fixtures.js';
import { count, nth, validateAgainstXsd, xpath } from './xmllint.fixtures.js';

/**
 * What xmllint reads from a file, by query: `Name` or `Name[n]` is the n-th element of that local name (the
 * first when no n), `#Name` how many there are, anything else an XPath expression.
 */
function readBack(xml: string, queries: Record<string, unknown>): Record<string, unknown> {
  const read = (query: string) => {
    const element = /^(\w+)(?:\[(\d+)\])?$/.exec(query);
    if (element) return nth(xml, element[1], element[2] ? Number(element[2]) : 1);
    return query.startsWith('#') ? count(xml, query.slice(1)) : xpath(xml, query);
  };
  return Object.fromEntries(Object.keys(queries).map((query) => [query, read(query)]));
}

/** An XPath to the text of the first element down the path `names` under the n-th element of local name `first`. */
function under(first: string, n: number, ...names: string[]): string {
  return `string((//*[local-name()='${first}'])[${n}]${names.map((name) => `//*[local-name()='${name}']`).join('')})`;
}

/** The first `Othr/Id` (an account number) under the n-th element of local name `name`. */
const otherId = (name: string, n: number) =>
  `string((//*[local-name()='${name}'])[${n}]//*[local-name()='Othr']/*[local-name()='Id'])`;

/** What xmllint reads of an initiation's namespace, group header totals and payment method. */
function initiationHeader(type: MessageType, nbOfTxs: string, ctrlSum: string, pmtMtd: 'TRF' | 'DD') {
  return {
    'namespace-uri(/*)': `urn:iso:std:iso:20022:tech:xsd:${type}`,
    NbOfTxs: nbOfTxs,
    CtrlSum: ctrlSum,
    PmtMtd: pmtMtd,
  };
}

/** Every file a writer produces: valid against ISO's XSD, read back by xmllint's XPath, round-tripped. */
describe('ISO 20022 writers', () => {
  describe.each(CODECS)('$type', ({ type, sample, write, read }) => {
    const xml = write(sample);

    it('validates against the XSD', () => {
      expect(validateAgainstXsd(xml, type)).toEqual({ ok: true, output: expect.any(String) });
    });

    it('round-trips', () => {
      expect(read(xml)).toEqual(sample);
    });
  });

  it('pain.001.001.09 reads back with xmllint: ids, amounts, currencies, counts, accounts', () => {
    const expected = {
      ...initiationHeader('pain.001.001.09', '3', '1001234.57', 'TRF'),
      MsgId: 'PO-20261128-0001',
      '#PmtInf': 2,
      '#CdtTrfTxInf': 3,
      'EndToEndId[1]': 'E2E-EUR-1',
      'InstdAmt[1]': '1234.56',
      'InstdAmt[2]': '0.01',
      'InstdAmt[3]': '1000000.00',
      "string((//*[local-name()='InstdAmt'])[3]/@Ccy)": 'USD',
      'Ustrd[1]': 'Invoice 2026-0042 <paid>',
      [otherId('CdtrAcct', 3)]: '987654321',
      [under('CdtrAgt', 2, 'MmbId')]: '026009593',
      [under('DbtrAgt', 1, 'BICFI')]: 'COBADEFFXXX',
      "string((//*[local-name()='ReqdExctnDt'])[1]/*[local-name()='Dt'])": '2026-11-30',
    };
    expect(readBack(written('pain.001.001.09'), expected)).toEqual(expected);
  });

  it('pain.008.001.08 reads back with xmllint', () => {
    const expected = {
      ...initiationHeader('pain.008.001.08', '3', '2560.98', 'DD'),
      '#DrctDbtTxInf': 3,
      'EndToEndId[2]': 'COL-2',
      'InstdAmt[2]': '2500.00',
      'MndtId[1]': 'MANDATE-1',
      'DtOfSgntr[3]': '2026-03-03',
      ReqdColltnDt: '2026-12-02',
      "string(//*[local-name()='CdtrSchmeId']//*[local-name()='Othr']/*[local-name()='Id'])": 'DE98ZZZ09999999999',
      [otherId('DbtrAcct', 3)]: '987654321',
    };
    expect(readBack(written('pain.008.001.08'), expected)).toEqual(expected);
  });

  it('pain.002.001.10 reads back with xmllint', () => {
    const expected = {
      OrgnlMsgId: 'PO-20261128-0001',
      OrgnlMsgNmId: 'pain.001.001.09',
      GrpSts: 'PART',
      '#TxInfAndSts': 3,
      '#OrgnlPmtInfAndSts': 2,
      'OrgnlEndToEndId[2]': 'E2E-EUR-2',
      'TxSts[2]': 'RJCT',
      Cd: 'AC04',
    };
    expect(readBack(written('pain.002.001.10'), expected)).toEqual(expected);
  });

  it('pain.002.001.10 round-trips a duplicate-file group rejection too', () => {
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

  it('camt.054.001.08 reads back with xmllint: entries, return reason, counterparties', () => {
    const expected = {
      '#Ntry': 3,
      'NtryRef[2]': 'N2',
      "string((//*[local-name()='Ntry'])[1]/*[local-name()='Amt'])": '1234.56',
      "string((//*[local-name()='Ntry'])[1]/*[local-name()='CdtDbtInd'])": 'DBIT',
      "string((//*[local-name()='Ntry'])[3]/*[local-name()='Sts']/*)": 'PDNG',
      "string(//*[local-name()='RtrInf']//*[local-name()='Cd'])": 'AC06',
      [under('Ntry', 2, 'EndToEndId')]: 'E2E-EUR-2',
      "string(//*[local-name()='Acct']/*[local-name()='Ccy'])": 'EUR',
      [under('Ntry', 1, 'CdtrAcct', 'IBAN')]: 'FR1420041010050500013M02606',
    };
    expect(readBack(written('camt.054.001.08'), expected)).toEqual(expected);
  });

  it('camt.053.001.08 reads back with xmllint: balances and entries', () => {
    const expected = {
      '#Bal': 2,
      [under('Bal', 1, 'Cd')]: 'OPBD',
      "string((//*[local-name()='Bal'])[1]/*[local-name()='Amt'])": '50.00',
      "string((//*[local-name()='Bal'])[1]/*[local-name()='CdtDbtInd'])": 'DBIT',
      "string((//*[local-name()='Bal'])[2]/*[local-name()='Amt'])": '999950.00',
      "string(//*[local-name()='Acct']//*[local-name()='Othr']/*[local-name()='Id'])": '000123456789',
      '#Ntry': 1,
    };
    expect(readBack(written('camt.053.001.08'), expected)).toEqual(expected);
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
