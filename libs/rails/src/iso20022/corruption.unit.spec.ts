import { describe, expect, it } from '@jest/globals';
import { CAMT053, CAMT054, PAIN001, PAIN002 } from './bank-files.fixtures.js';
import {
  Iso20022Error,
  MAX_DOCUMENT_BYTES,
  readNotification,
  readPain001,
  readPain008,
  readStatement,
  readStatusReport,
  writePain001,
} from './index.js';
import { pain001 } from './samples.fixtures.js';

/** The reason an Iso20022Error gives, or a failure when the reader accepted the file. */
function reasonOf(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(Iso20022Error);
    return (e as Iso20022Error).reason;
  }
  throw new Error('the reader accepted the file');
}

describe('ISO 20022 readers refuse what they cannot trust', () => {
  const good = writePain001(pain001);

  it('a truncated file', () => {
    expect(reasonOf(() => readPain001(good.slice(0, Math.floor(good.length / 2))))).toMatch(/malformed XML/);
    expect(reasonOf(() => readNotification(CAMT054.slice(0, -12)))).toMatch(/malformed XML/);
  });

  it('text that is not XML at all', () => {
    expect(reasonOf(() => readStatusReport('MsgId;Status\nX;ACSC\n'))).toBe(
      'not a pain.002.001.10 document (no XML root element)',
    );
    expect(reasonOf(() => readStatusReport(''))).toMatch(/no XML root element/);
    expect(reasonOf(() => readStatusReport('{"json": true}'))).toMatch(/no XML root element/);
  });

  it('a wrong or missing namespace, or another message', () => {
    expect(reasonOf(() => readStatusReport(PAIN002.replaceAll('pain.002.001.10', 'pain.002.001.03')))).toBe(
      'not a pain.002.001.10 document (namespace urn:iso:std:iso:20022:tech:xsd:pain.002.001.03)',
    );
    expect(reasonOf(() => readPain001(good.replace(/ xmlns="[^"]*"/, '')))).toBe(
      'not a pain.001.001.09 document (namespace missing)',
    );
    expect(reasonOf(() => readPain008(good))).toMatch(/not a pain.008.001.08 document \(namespace .*pain.001.001.09\)/);
    const foreign = PAIN002.replace('<ns2:GrpHdr>', '<x:GrpHdr xmlns:x="urn:other">').replace(
      '</ns2:GrpHdr>',
      '</x:GrpHdr>',
    );
    expect(reasonOf(() => readStatusReport(foreign))).toMatch(/element prefix x is bound to urn:other/);
    expect(reasonOf(() => readPain001(good.replace('<GrpHdr>', '<GrpHdr xmlns="urn:other">')))).toMatch(
      /declares the default namespace urn:other/,
    );
    expect(reasonOf(() => readPain001('<Doc xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"/>'))).toMatch(
      /root element Doc/,
    );
  });

  it('an amount with more decimals than the currency has, negative or not a number, a bad currency', () => {
    const withAmount = (amt: string) => CAMT054.replace('<Amt Ccy="EUR">10</Amt>', amt);
    expect(reasonOf(() => readNotification(withAmount('<Amt Ccy="EUR">12.345</Amt>')))).toBe(
      'Document/BkToCstmrDbtCdtNtfctn/Ntfctn/Ntry[2]: amount 12.345 has more than 2 decimals for EUR',
    );
    expect(reasonOf(() => readNotification(withAmount('<Amt Ccy="EUR">-5.00</Amt>')))).toMatch(
      /amount -5.00 is negative/,
    );
    expect(reasonOf(() => readNotification(withAmount('<Amt Ccy="EUR">1e3</Amt>')))).toMatch(
      /amount 1e3 is not a number/,
    );
    expect(reasonOf(() => readNotification(withAmount('<Amt Ccy="EUR">12,50</Amt>')))).toMatch(/is not a number/);
    expect(reasonOf(() => readNotification(withAmount('<Amt Ccy="EURO">1</Amt>')))).toMatch(
      /currency EURO is not a 3-letter ISO 4217 code/,
    );
    expect(reasonOf(() => readNotification(withAmount('<Amt>1</Amt>')))).toMatch(/currency \(missing\)/);
    expect(reasonOf(() => readPain001(good.replace('>1234.56<', '>1234.567<')))).toMatch(
      /more than 2 decimals for EUR/,
    );
  });

  it('a DOCTYPE or an ENTITY (no XXE, no billion laughs)', () => {
    const xxe = good.replace('<Document', '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document');
    expect(reasonOf(() => readPain001(xxe))).toBe('document has a DOCTYPE (refused: no DTDs or entities)');
    const laughs = good.replace('<Document', '<!doctype d [<!ENTITY a "ha"><!ENTITY b "&a;&a;">]><Document');
    expect(reasonOf(() => readPain001(laughs))).toMatch(/DOCTYPE/);
    expect(reasonOf(() => readPain001(good.replace('<Document', '<!ENTITY a "x"><Document')))).toMatch(/ENTITY/);
  });

  it('NbOfTxs or CtrlSum that disagree with the content', () => {
    expect(
      reasonOf(() => readPain001(good.replace('<CtrlSum>1001234.57</CtrlSum>', '<CtrlSum>1001234.58</CtrlSum>'))),
    ).toBe('Document/CstmrCdtTrfInitn/GrpHdr/CtrlSum is 1001234.58 but the transactions add up to 1001234.57');
    expect(
      reasonOf(() => readPain001(good.replace('<CtrlSum>1234.57</CtrlSum>', '<CtrlSum>1234.50</CtrlSum>'))),
    ).toMatch(/PmtInf\[1\]\/CtrlSum is 1234.50 but the transactions add up to 1234.57/);
    expect(reasonOf(() => readPain001(good.replace('<NbOfTxs>3</NbOfTxs>', '<NbOfTxs>4</NbOfTxs>')))).toMatch(
      /GrpHdr\/NbOfTxs is 4 but the file holds 3 transactions/,
    );
    expect(readPain001(PAIN001.replace('<NbOfTxs>1</NbOfTxs>', '<NbOfTxs>001</NbOfTxs>')).messageId).toBe('ERP-000042');
  });

  it('missing or repeated required elements', () => {
    expect(reasonOf(() => readPain001(good.replace('<MsgId>PO-20261128-0001</MsgId>', '')))).toBe(
      'missing Document/CstmrCdtTrfInitn/GrpHdr/MsgId',
    );
    expect(reasonOf(() => readPain001(good.replace(/<EndToEndId>E2E-EUR-2<\/EndToEndId>/, '')))).toMatch(
      /missing Document\/CstmrCdtTrfInitn\/PmtInf\[1\]\/CdtTrfTxInf\[2\]\/PmtId\/EndToEndId/,
    );
    expect(
      reasonOf(() => readStatusReport(PAIN002.replace('<ns2:MsgId>', '<ns2:MsgId>A</ns2:MsgId><ns2:MsgId>'))),
    ).toMatch(/GrpHdr\/MsgId appears 2 times/);
    expect(
      reasonOf(() =>
        readStatusReport(PAIN002.replace('pain.001.001.09</ns2:OrgnlMsgNmId>', 'camt.060</ns2:OrgnlMsgNmId>')),
      ),
    ).toMatch(/OrgnlMsgNmId camt.060 is not/);
  });

  it('a statement whose balances disagree with its entries, a bad entry status or date', () => {
    expect(reasonOf(() => readStatement(CAMT053.replace('989.01', '989.02')))).toBe(
      'Document/BkToCstmrStmt/Stmt: opening balance plus booked entries is 989.01, closing balance says 989.02',
    );
    expect(reasonOf(() => readStatement(CAMT053.replace('<s:Cd>BOOK</s:Cd>', '<s:Cd>INFO</s:Cd>')))).toMatch(
      /Sts\/Cd INFO is not BOOK or PDNG/,
    );
    expect(
      reasonOf(() =>
        readStatement(CAMT053.replace('<s:Dt>2026-11-28</s:Dt></s:BookgDt>', '<s:Dt>28.11.2026</s:Dt></s:BookgDt>')),
      ),
    ).toMatch(/28.11.2026 is not a YYYY-MM-DD date/);
  });

  it('a document over the size limit, before parsing it', () => {
    const huge = good.replace('<Ustrd>', `<Ustrd>${'x'.repeat(MAX_DOCUMENT_BYTES)}`);
    expect(reasonOf(() => readPain001(huge))).toMatch(/larger than/);
  });
});
