import { BankAccount } from './messages.js';
import { At, Iso20022Error, XmlNode, all, compact, optText, optional, ownText, text } from './xml.js';

/** The clearing system of a US routing number (ABA) in ClrSysMmbId/ClrSysId/Cd. */
export const US_ROUTING_CLEARING_SYSTEM = 'USABA';
/** What FinInstnId/Othr/Id says when the agent is not identified. */
export const NOT_PROVIDED = 'NOTPROVIDED';

/** Text for a MaxNText element; refuses what the schema would not take rather than cutting it. */
export function limited(value: string, max: number, where: string): string {
  if (value.length === 0 || value.length > max)
    throw new Iso20022Error(`${where}: ${JSON.stringify(value.slice(0, 40))} must be 1 to ${max} characters`);
  return value;
}

/** An identifier (MsgId, PmtInfId, EndToEndId...): Max35Text. */
export function id35(value: string, where: string): string {
  return limited(value, 35, where);
}

/** RmtInf with one unstructured line (Max140Text), or nothing. */
export function remittanceXml(text: string | undefined, where: string): XmlNode | undefined {
  return text ? { Ustrd: limited(text, 140, `${where}/RmtInf/Ustrd`) } : undefined;
}

/** Party (Dbtr, Cdtr, InitgPty): the name (Max140Text). */
export function partyXml(name: string, where = 'Nm'): XmlNode {
  return { Nm: limited(name, 140, where) };
}

/** Account (DbtrAcct, CdtrAcct): Id/IBAN, or Id/Othr/Id for an account number. */
export function accountXml(account: BankAccount, where: string, currency?: string): XmlNode {
  let id: XmlNode;
  if (account.iban) id = { IBAN: account.iban };
  else if (account.accountNumber) id = { Othr: { Id: account.accountNumber } };
  else throw new Iso20022Error(`${where}: account of ${account.name} has neither IBAN nor account number`);
  return compact({ Id: id, Ccy: currency });
}

/** Agent (DbtrAgt, CdtrAgt): BICFI and/or ClrSysMmbId for a routing number, else Othr/Id NOTPROVIDED. */
export function agentXml(account: BankAccount): XmlNode {
  if (!account.bic && !account.routingNumber) return { FinInstnId: { Othr: { Id: NOT_PROVIDED } } };
  const clearing = account.routingNumber
    ? { ClrSysId: { Cd: US_ROUTING_CLEARING_SYSTEM }, MmbId: account.routingNumber }
    : undefined;
  return { FinInstnId: compact({ BICFI: account.bic, ClrSysMmbId: clearing }) };
}

/** Whether an account names its bank (so that an optional agent element is worth writing). */
export function hasAgent(account: BankAccount): boolean {
  return Boolean(account.bic || account.routingNumber);
}

/** Reads the account identification of an account element (CashAccount38/39). */
export function readAccountId(acct: At): Pick<BankAccount, 'iban' | 'accountNumber'> {
  const id = optional(acct, 'Id');
  if (!id) throw new Iso20022Error(`missing ${acct.path}/Id`);
  const iban = optText(id, 'IBAN');
  if (iban) return { iban };
  const other = optText(id, 'Othr/Id');
  if (other) return { accountNumber: other };
  throw new Iso20022Error(`${id.path} has neither IBAN nor Othr/Id`);
}

/** Reads an agent element (BranchAndFinancialInstitutionIdentification6). */
export function readAgent(agent: At | undefined): Pick<BankAccount, 'bic' | 'routingNumber'> {
  if (!agent) return {};
  const fin = optional(agent, 'FinInstnId');
  if (!fin) throw new Iso20022Error(`missing ${agent.path}/FinInstnId`);
  const bic = optText(fin, 'BICFI');
  const routingNumber = optText(fin, 'ClrSysMmbId/MmbId');
  return compact({ bic, routingNumber }) as Pick<BankAccount, 'bic' | 'routingNumber'>;
}

/** A whole bank account from a party (name), its account and optionally its agent element. */
export function readBankAccount(parent: At, party: string, account: string, agent?: string): BankAccount {
  const name = optText(parent, `${party}/Nm`) ?? '';
  const acct = optional(parent, account);
  if (!acct) throw new Iso20022Error(`missing ${parent.path}/${account}`);
  const result: BankAccount = { name, ...readAccountId(acct) };
  if (agent) Object.assign(result, readAgent(optional(parent, agent)));
  return result;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An ISODate; refuses another shape. */
export function readDate(at: At, path: string): string {
  const value = text(at, path);
  if (!DATE.test(value)) throw new Iso20022Error(`${at.path}/${path}: ${value} is not a YYYY-MM-DD date`);
  return value;
}

/** A date from a DateAndDateTime2Choice (Dt, or the date part of DtTm). */
export function readDateChoice(at: At, path: string): string {
  const choice = optional(at, path);
  if (!choice) throw new Iso20022Error(`missing ${at.path}/${path}`);
  const dt = optText(choice, 'Dt');
  if (dt !== undefined) return readDate(choice, 'Dt');
  const dtTm = text(choice, 'DtTm');
  if (!/^\d{4}-\d{2}-\d{2}T/.test(dtTm)) throw new Iso20022Error(`${choice.path}/DtTm: ${dtTm} is not a date-time`);
  return dtTm.slice(0, 10);
}

/** An ISODateTime (kept as written); refuses text that does not start like one. */
export function readDateTime(at: At, path: string): string {
  const value = text(at, path);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
    throw new Iso20022Error(`${at.path}/${path}: ${value} is not an ISO date-time`);
  return value;
}

/** Unstructured remittance lines joined by a space; undefined when there are none. */
export function readRemittance(parent: At): string | undefined {
  const rmt = optional(parent, 'RmtInf');
  const lines = rmt ? all(rmt, 'Ustrd').map(ownText) : [];
  return lines.length > 0 ? lines.join(' ') : undefined;
}
