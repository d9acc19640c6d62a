import { decimalText, decimalsOf, formatAmount, parseAmount } from './amount.js';
import { entryXml, readEntry, readReportedAccount, reportedAccountXml } from './entries.js';
import { Balance, Statement } from './messages.js';
import { readDateChoice, readDateTime } from './parties.js';
import {
  At,
  Iso20022Error,
  XmlNode,
  all,
  attr,
  buildDocument,
  one,
  optText,
  ownText,
  parseDocument,
  text,
} from './xml.js';

const TYPE = 'camt.053.001.08';
const ROOT = 'BkToCstmrStmt';

function balanceXml(code: 'OPBD' | 'CLBD', b: Balance, date: string): XmlNode {
  return {
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: { '@_Ccy': b.amount.currency, '#text': formatAmount(b.amount, `Bal ${code}`) },
    CdtDbtInd: b.creditDebit,
    Dt: { Dt: date },
  };
}

/** camt.053.001.08: one Stmt for the account and the day, opening (OPBD) and closing (CLBD) booked balances. */
export function writeStatement(m: Statement): string {
  const body = {
    GrpHdr: { MsgId: m.messageId, CreDtTm: m.createdAt },
    Stmt: {
      Id: m.statementId,
      CreDtTm: m.createdAt,
      FrToDt: { FrDtTm: `${m.date}T00:00:00`, ToDtTm: `${m.date}T23:59:59` },
      Acct: reportedAccountXml(m.account, 'Stmt/Acct'),
      Bal: [balanceXml('OPBD', m.openingBalance, m.date), balanceXml('CLBD', m.closingBalance, m.date)],
      Ntry: m.entries.map((e, i) => entryXml(e, `Ntry[${i + 1}]`)),
    },
  };
  return buildDocument(TYPE, ROOT, body);
}

function readBalance(stmt: At, codes: string[]): { balance: Balance; date: string } {
  const bal = all(stmt, 'Bal').find((b) => codes.includes(optText(b, 'Tp/CdOrPrtry/Cd') ?? ''));
  if (!bal) throw new Iso20022Error(`${stmt.path} has no ${codes.join('/')} balance`);
  const amt = one(bal, 'Amt');
  const creditDebit = text(bal, 'CdtDbtInd');
  if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT')
    throw new Iso20022Error(`${bal.path}/CdtDbtInd ${creditDebit} is not CRDT or DBIT`);
  return {
    balance: { amount: parseAmount(ownText(amt), attr(amt, 'Ccy'), bal.path), creditDebit },
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

function readOne(stmt: At, messageId: string, createdAt: string): Statement {
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
    messageId,
    createdAt,
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
  const root = parseDocument(xml, TYPE, ROOT);
  const hdr = one(root, 'GrpHdr');
  const messageId = text(hdr, 'MsgId');
  const createdAt = readDateTime(hdr, 'CreDtTm');
  const statements = all(root, 'Stmt');
  if (statements.length === 0) throw new Iso20022Error(`missing ${root.path}/Stmt`);
  return statements.map((stmt) => readOne(stmt, messageId, createdAt));
}

/** Reads a camt.053.001.08 of one account; throws Iso20022Error with the reason (readStatements for several). */
export function readStatement(xml: string): Statement {
  const statements = readStatements(xml);
  if (statements.length > 1)
    throw new Iso20022Error(`the file holds ${statements.length} Stmt; readStatements reads several accounts`);
  return statements[0];
}
