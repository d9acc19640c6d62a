/** What camt.053 and camt.054 share: the reported account and its entries (ReportEntry10). */
import { amountXml, readAmount } from './amount.js';
import { BankAccount, BankTransactionCode, Entry, EntryDetail } from './messages.js';
import {
  accountXml,
  agentXml,
  hasAgent,
  partyXml,
  readAccountId,
  readAgent,
  readDateChoice,
  readRemittance,
} from './parties.js';
import { At, Iso20022Error, XmlNode, all, compact, one, optText, optional, text } from './xml.js';

export type ReportedAccount = BankAccount & { currency: string };

const ENTRY_STATUSES = ['BOOK', 'PDNG'] as const;
const CREDIT_DEBIT = ['CRDT', 'DBIT'] as const;

/** Acct: Id, Ccy, Ownr/Nm and the servicing bank (Svcr) when the account names one. */
export function reportedAccountXml(account: ReportedAccount, where: string): XmlNode {
  return compact({
    ...accountXml(account, where, account.currency),
    Ownr: partyXml(account.name),
    Svcr: hasAgent(account) ? agentXml(account) : undefined,
  });
}

export function readReportedAccount(parent: At): ReportedAccount {
  const acct = one(parent, 'Acct');
  const currency = text(acct, 'Ccy');
  if (!/^[A-Z]{3}$/.test(currency)) throw new Iso20022Error(`${acct.path}/Ccy ${currency} is not a 3-letter code`);
  const name = optText(acct, 'Ownr/Nm') ?? optText(acct, 'Nm') ?? '';
  return { name, ...readAccountId(acct), ...readAgent(optional(acct, 'Svcr')), currency };
}

function defaultCode(e: Entry): BankTransactionCode {
  return { domain: 'PMNT', family: e.creditDebit === 'CRDT' ? 'RCDT' : 'ICDT', subFamily: 'DMCT' };
}

function detailXml(d: EntryDetail, creditDebit: Entry['creditDebit'], where: string): XmlNode {
  const side = creditDebit === 'CRDT' ? 'Dbtr' : 'Cdtr';
  const c = d.counterparty;
  const parties = c && {
    [side]: { Pty: partyXml(c.name) },
    [`${side}Acct`]: c.iban || c.accountNumber ? accountXml(c, where) : undefined,
  };
  return compact({
    Refs: d.endToEndId ? { EndToEndId: d.endToEndId } : undefined,
    RltdPties: parties ? compact(parties) : undefined,
    RltdAgts: c && hasAgent(c) ? { [`${side}Agt`]: agentXml(c) } : undefined,
    RmtInf: d.remittanceInformation ? { Ustrd: d.remittanceInformation } : undefined,
    RtrInf: d.returnReasonCode ? { Rsn: { Cd: d.returnReasonCode } } : undefined,
  });
}

export function entryXml(e: Entry, where: string): XmlNode {
  const code = e.bankTransactionCode ?? defaultCode(e);
  return compact({
    NtryRef: e.entryReference,
    Amt: amountXml(e.amount, where),
    CdtDbtInd: e.creditDebit,
    RvslInd: e.reversal === undefined ? undefined : String(e.reversal),
    Sts: { Cd: e.status },
    BookgDt: { Dt: e.bookingDate },
    ValDt: e.valueDate ? { Dt: e.valueDate } : undefined,
    AcctSvcrRef: e.bankReference,
    BkTxCd: { Domn: { Cd: code.domain, Fmly: { Cd: code.family, SubFmlyCd: code.subFamily } } },
    NtryDtls:
      e.details.length === 0
        ? undefined
        : { TxDtls: e.details.map((d, i) => detailXml(d, e.creditDebit, `${where}/TxDtls[${i + 1}]`)) },
  });
}

function readCounterparty(tx: At, side: 'Dbtr' | 'Cdtr'): BankAccount | undefined {
  const parties = optional(tx, 'RltdPties');
  const acct = parties && optional(parties, `${side}Acct`);
  const name = parties && (optText(parties, `${side}/Pty/Nm`) ?? optText(parties, `${side}/Nm`));
  const agents = optional(tx, 'RltdAgts');
  if (!acct && name === undefined) return undefined;
  return {
    name: name ?? '',
    ...(acct ? readAccountId(acct) : {}),
    ...readAgent(agents && optional(agents, `${side}Agt`)),
  };
}

function readDetail(tx: At, creditDebit: Entry['creditDebit']): EntryDetail {
  const detail: EntryDetail = {};
  const endToEndId = optText(tx, 'Refs/EndToEndId');
  if (endToEndId && endToEndId !== 'NOTPROVIDED') detail.endToEndId = endToEndId;
  const remittance = readRemittance(tx);
  if (remittance !== undefined) detail.remittanceInformation = remittance;
  const ret = optional(tx, 'RtrInf');
  const reason = ret && (optText(ret, 'Rsn/Cd') ?? optText(ret, 'Rsn/Prtry'));
  if (reason) detail.returnReasonCode = reason;
  const counterparty = readCounterparty(tx, creditDebit === 'CRDT' ? 'Dbtr' : 'Cdtr');
  if (counterparty) detail.counterparty = counterparty;
  return detail;
}

function oneOf<T extends string>(at: At, path: string, allowed: readonly T[]): T {
  const value = text(at, path);
  if (!allowed.includes(value as T))
    throw new Iso20022Error(`${at.path}/${path} ${value} is not ${allowed.join(' or ')}`);
  return value as T;
}

function readCode(ntry: At): BankTransactionCode | undefined {
  const domain = optional(one(ntry, 'BkTxCd'), 'Domn');
  if (!domain) return undefined;
  return { domain: text(domain, 'Cd'), family: text(domain, 'Fmly/Cd'), subFamily: text(domain, 'Fmly/SubFmlyCd') };
}

export function readEntry(ntry: At): Entry {
  const amt = one(ntry, 'Amt');
  const creditDebit = oneOf(ntry, 'CdtDbtInd', CREDIT_DEBIT);
  const entry: Entry = {
    entryReference: optText(ntry, 'NtryRef') ?? optText(ntry, 'AcctSvcrRef') ?? '',
    amount: readAmount(amt, ntry.path),
    creditDebit,
    status: oneOf(ntry, 'Sts/Cd', ENTRY_STATUSES),
    bookingDate: optional(ntry, 'BookgDt') ? readDateChoice(ntry, 'BookgDt') : readDateChoice(ntry, 'ValDt'),
    details: all(ntry, 'NtryDtls').flatMap((d) => all(d, 'TxDtls').map((tx) => readDetail(tx, creditDebit))),
  };
  if (optional(ntry, 'ValDt')) entry.valueDate = readDateChoice(ntry, 'ValDt');
  const bankReference = optText(ntry, 'AcctSvcrRef');
  if (bankReference) entry.bankReference = bankReference;
  const reversal = optText(ntry, 'RvslInd');
  if (reversal !== undefined) entry.reversal = reversal === 'true' || reversal === '1';
  const code = readCode(ntry);
  // The writer's default stays implicit, so that what was written without a code reads back without one.
  const implicit = defaultCode(entry);
  if (
    code &&
    (code.domain !== implicit.domain || code.family !== implicit.family || code.subFamily !== implicit.subFamily)
  )
    entry.bankTransactionCode = code;
  return entry;
}
