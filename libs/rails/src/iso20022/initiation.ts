/**
 * What pain.001 and pain.008 share: the group header with its totals, each payment information block's totals
 * and the identification, amount and remittance of each transaction.
 */
import { checkTotals, controlSum, readAmount } from './amount.js';
import { Amount, MessageType } from './messages.js';
import { id35, partyXml, readDateTime, readRemittance } from './parties.js';
import { At, Iso20022Error, XmlNode, all, buildDocument, one, optText, parseDocument, text } from './xml.js';

/** The fields every transaction carries; PmtId/InstrId is written as the end-to-end id when absent. */
export interface Transaction {
  endToEndId: string;
  amount: Amount;
  remittanceInformation?: string;
  instructionId?: string;
}

export interface Initiation<P> {
  messageId: string;
  createdAt: string;
  initiatingPartyName: string;
  payments: P[];
}

/** How one initiation message lays out its payment information blocks. */
export interface InitiationLayout<P> {
  type: MessageType;
  /** The message element under Document (CstmrCdtTrfInitn, CstmrDrctDbtInitn). */
  root: string;
  /** The transaction element of a block (CdtTrfTxInf, DrctDbtTxInf). */
  element: string;
  /** What a transaction is called in errors (transfer, collection). */
  noun: string;
  transactionsOf(payment: P): Transaction[];
}

const amountsOf = (transactions: Transaction[]) => transactions.map((t) => t.amount);

/** PmtId with InstrId (the end-to-end id when absent) and EndToEndId, each Max35Text. */
export function paymentIdXml(t: Transaction, where: string): XmlNode {
  return { InstrId: id35(t.instructionId ?? t.endToEndId, where), EndToEndId: id35(t.endToEndId, where) };
}

/** The start of a PmtInf block: its id, payment method and totals. */
export function paymentInfoXml(id: string, where: string, method: 'TRF' | 'DD', transactions: Transaction[]) {
  return {
    PmtInfId: id35(id, `${where}/PmtInfId`),
    PmtMtd: method,
    NbOfTxs: String(transactions.length),
    CtrlSum: controlSum(amountsOf(transactions)),
  };
}

/** The document, with the group header's NbOfTxs and CtrlSum over every block; `paymentXml` writes a block. */
export function writeInitiation<P>(
  layout: InitiationLayout<P>,
  m: Initiation<P>,
  paymentXml: (payment: P, where: string) => XmlNode,
): string {
  if (m.payments.length === 0 || m.payments.some((p) => layout.transactionsOf(p).length === 0)) {
    const name = layout.type.slice(0, 'pain.00x'.length);
    throw new Iso20022Error(`a ${name} needs at least one payment information block, each with a ${layout.noun}`);
  }
  const every = m.payments.flatMap((p) => amountsOf(layout.transactionsOf(p)));
  const body = {
    GrpHdr: {
      MsgId: id35(m.messageId, 'GrpHdr/MsgId'),
      CreDtTm: m.createdAt,
      NbOfTxs: String(every.length),
      CtrlSum: controlSum(every),
      InitgPty: partyXml(m.initiatingPartyName),
    },
    PmtInf: m.payments.map((p, i) => paymentXml(p, `PmtInf[${i + 1}]`)),
  };
  return buildDocument(layout.type, layout.root, body);
}

/** Reads the transactions of a block, refusing none and totals (NbOfTxs, CtrlSum) that disagree with them. */
export function readTransactions<T extends Transaction>(
  layout: InitiationLayout<unknown>,
  pmt: At,
  read: (tx: At) => T,
): T[] {
  const transactions = all(pmt, layout.element).map(read);
  if (transactions.length === 0) throw new Iso20022Error(`missing ${pmt.path}/${layout.element}`);
  checkTotals(pmt.path, { count: optText(pmt, 'NbOfTxs'), sum: optText(pmt, 'CtrlSum') }, amountsOf(transactions));
  return transactions;
}

/** Reads a transaction's ids, amount (the element `amt`) and remittance, with what `rest` reads after them. */
export function readTransaction<T extends Transaction>(tx: At, amt: At, rest: () => Omit<T, keyof Transaction>): T {
  const endToEndId = text(tx, 'PmtId/EndToEndId');
  const instructionId = optText(tx, 'PmtId/InstrId');
  const remittance = readRemittance(tx);
  const transaction = { endToEndId, amount: readAmount(amt), ...rest() } as T;
  if (instructionId !== undefined && instructionId !== endToEndId) transaction.instructionId = instructionId;
  if (remittance !== undefined) transaction.remittanceInformation = remittance;
  return transaction;
}

/** Reads an initiation the service must distrust: its header, the blocks `readPayment` reads, and the totals. */
export function readInitiation<P>(
  xml: string,
  layout: InitiationLayout<P>,
  readPayment: (pmt: At) => P,
): Initiation<P> {
  const root = parseDocument(xml, layout.type, layout.root);
  const hdr = one(root, 'GrpHdr');
  const payments = all(root, 'PmtInf').map(readPayment);
  if (payments.length === 0) throw new Iso20022Error(`missing ${root.path}/PmtInf`);
  checkTotals(
    hdr.path,
    { count: text(hdr, 'NbOfTxs'), sum: optText(hdr, 'CtrlSum') },
    payments.flatMap((p) => amountsOf(layout.transactionsOf(p))),
  );
  return {
    messageId: text(hdr, 'MsgId'),
    createdAt: readDateTime(hdr, 'CreDtTm'),
    initiatingPartyName: optText(hdr, 'InitgPty/Nm') ?? '',
    payments,
  };
}
