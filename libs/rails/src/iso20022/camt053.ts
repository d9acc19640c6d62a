import { amountXml, decimalText, decimalsOf, readAmount } from './amount.js';
import { entryXml, readEntry, readReportedAccount, reportedAccountXml } from './entries.js';
import { Balance, Statement } from './messages.js';
import { readDateChoice } from './parties.js';
import { ReportHeader, ReportLayout, onlyReport, readReports, writeReport } from './reports.js';
import { At, Iso20022Error, XmlNode, all, one, optText, text } from './xml.js';

const LAYOUT: ReportLayout = {
  type: 'camt.053.001.08',
  root: 'BkToCstmrStmt',
  element: 'Stmt',
  readerOfSeveral: 'readStatements',
};

function balanceXml(code: 'OPBD' | 'CLBD', b: Balance, date: string): XmlNode {
  return {
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: amountXml(b.amount, `Bal ${code}`),
    CdtDbtInd: b.creditDebit,
    Dt: { Dt: date },
  };
}

/** camt.053.001.08: one Stmt for the account and the day, opening (OPBD) and closing (CLBD) booked balances. */
export function writeStatement(m: Statement): string {
  return writeReport(LAYOUT, m, {
    Id: m.statementId,
    CreDtTm: m.createdAt,
    FrToDt: { FrDtTm: `${m.date}T00:00:00`, ToDtTm: `${m.date}T23:59:59` },
    Acct: reportedAccountXml(m.account, 'Stmt/Acct'),
    Bal: [balanceXml('OPBD', m.openingBalance, m.date), balanceXml('CLBD', m.closingBalance, m.date)],
    Ntry: m.entries.map((e, i) => entryXml(e, `Ntry[${i + 1}]`)),
  });
}

function readBalance(stmt: At, codes: string[]): { balance: Balance; date: string } {
  const bal = all(stmt, 'Bal').find((b) => codes.includes(optText(b, 'Tp/CdOrPrtry/Cd') ?? ''));
  if (!bal) throw new Iso20022Error(`${stmt.path} has no ${codes.join('/')} balance`);
  const amt = one(bal, 'Amt');
  const creditDebit = text(bal, 'CdtDbtInd');
  if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT')
    throw new Iso20022Error(`${bal.path}/CdtDbtInd ${creditDebit} is not CRDT or DBIT`);
  return {
    balance: { amount: readAmount(amt, bal.path), creditDebit },
    date: readDateChoice(bal, 'Dt'),
  };
}

/** The net movement of booked entries, signed (credits positive), for checking balances against entries. */
export function netOf(entries: Statement['entries']): bigint {
  return entries
    .filter((e) => e.status === 'BOOK')
    .reduce((sum, e) => sum + (e.creditDebit === 'CRDT' ? e.amount.minor : -e.amount.minor), 0n);
}

function signed(b: Balance): bigint {
  return b.creditDebit === 'CRDT' ? b.amount.minor : -b.amount.minor;
}

function readOne(stmt: At, header: ReportHeader): Statement {
  const opening = readBalance(stmt, ['OPBD', 'PRCD']);
  const closing = readBalance(stmt, ['CLBD']);
  const entries = all(stmt, 'Ntry').map(readEntry);
  const account = readReportedAccount(stmt);
  const moved = signed(opening.balance) + netOf(entries);
  if (moved !== signed(closing.balance)) {
    const show = (n: bigint) => decimalText(n, decimalsOf(account.currency));
    const closingText = show(signed(closing.balance));
    throw new Iso20022Error(
      `${stmt.path}: opening balance plus booked entries is ${show(moved)}, closing balance says ${closingText}`,
    );
  }
  return {
    ...header,
    statementId: text(stmt, 'Id'),
    account,
    date: closing.date,
    openingBalance: opening.balance,
    closingBalance: closing.balance,
    entries,
  };
}

/** Reads every Stmt (one per account) of a camt.053.001.08 the service must distrust. */
export function readStatements(xml: string): Statement[] {
  return readReports(xml, LAYOUT, readOne);
}

/** Reads a camt.053.001.08 of one account; throws Iso20022Error with the reason (readStatements for several). */
export function readStatement(xml: string): Statement {
  return onlyReport(LAYOUT, readStatements(xml));
}
