/**
 * What pain.001 and pain.008 share: the group header with its totals, the payment information blocks with theirs,
 * and each transaction's identification, amount and remittance. A message describes the rest in an
 * InitiationLayout: which elements a block and a transaction hold besides these, and how they are read.
 */
import { checkTotals, controlSum, readAmount } from './amount.js';
import { Amount, OriginalMessageType } from './messages.js';
import { id35, partyXml, readDateTime, readRemittance, remittanceXml } from './parties.js';
import { At, Iso20022Error, XmlFields, all, buildDocument, compact, one, optText, parseDocument, text } from './xml.js';

/** The fields every transaction carries; PmtId/InstrId is written as the end-to-end id when absent. */
export interface Transaction {
  endToEndId: string;
  amount: Amount;
  remittanceInformation?: string;
  instructionId?: string;
}

/** A payment information block (PmtInf) as far as the shared writer needs it. */
export interface Payment {
  paymentInformationId: string;
}

export interface Initiation<P> {
  messageId: string;
  createdAt: string;
  initiatingPartyName: string;
  payments: P[];
}

/** The message element under Document, PmtMtd, the transaction element and what errors call a transaction. */
const NAMES = {
  'pain.001.001.09': { root: 'CstmrCdtTrfInitn', method: 'TRF', element: 'CdtTrfTxInf', noun: 'transfer' },
  'pain.008.001.08': { root: 'CstmrDrctDbtInitn', method: 'DD', element: 'DrctDbtTxInf', noun: 'collection' },
} as const;

/** How one initiation message lays out its payment information blocks (P) and their transactions (T). */
export interface InitiationLayout<P, T extends Transaction> {
  type: OriginalMessageType;
  transactionsOf(payment: P): T[];
  /** A block's elements between its totals and its transactions. */
  paymentXml(payment: P, where: string): XmlFields;
  /** A transaction's elements between PmtId and RmtInf. */
  transactionXml(transaction: T, where: string): XmlFields;
  /** The amount element of a transaction. */
  amountOf(tx: At): At;
  /** What a transaction holds besides its ids, amount and remittance, read after them. */
  readTransaction(tx: At): Omit<T, keyof Transaction>;
  /** A block, read after its transactions. */
  readPayment(pmt: At, transactions: T[]): P;
}

const amountsOf = (transactions: Transaction[]) => transactions.map((t) => t.amount);

function transactionXml<T extends Transaction>(layout: InitiationLayout<unknown, T>, t: T, where: string) {
  return compact({
    PmtId: { InstrId: id35(t.instructionId ?? t.endToEndId, where), EndToEndId: id35(t.endToEndId, where) },
    ...layout.transactionXml(t, where),
    RmtInf: remittanceXml(t.remittanceInformation, where),
  });
}

function paymentXml<P extends Payment, T extends Transaction>(layout: InitiationLayout<P, T>, p: P, where: string) {
  const transactions = layout.transactionsOf(p);
  const { method, element } = NAMES[layout.type];
  return compact({
    PmtInfId: id35(p.paymentInformationId, `${where}/PmtInfId`),
    PmtMtd: method,
    NbOfTxs: String(transactions.length),
    CtrlSum: controlSum(amountsOf(transactions)),
    ...layout.paymentXml(p, where),
    [element]: transactions.map((t, j) => transactionXml(layout, t, `${where}/${element}[${j + 1}]`)),
  });
}

/** The document, with NbOfTxs and CtrlSum in the group header and in each PmtInf. */
export function writeInitiation<P extends Payment, T extends Transaction>(
  layout: InitiationLayout<P, T>,
  m: Initiation<P>,
): string {
  if (m.payments.length === 0 || m.payments.some((p) => layout.transactionsOf(p).length === 0)) {
    const name = layout.type.slice(0, 'pain.00x'.length);
    const { noun } = NAMES[layout.type];
    throw new Iso20022Error(`a ${name} needs at least one payment information block, each with a ${noun}`);
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
    PmtInf: m.payments.map((p, i) => paymentXml(layout, p, `PmtInf[${i + 1}]`)),
  };
  return buildDocument(layout.type, NAMES[layout.type].root, body);
}

function readTransaction<T extends Transaction>(layout: InitiationLayout<unknown, T>, tx: At): T {
  const amt = layout.amountOf(tx);
  const endToEndId = text(tx, 'PmtId/EndToEndId');
  const instructionId = optText(tx, 'PmtId/InstrId');
  const remittance = readRemittance(tx);
  const transaction = { endToEndId, amount: readAmount(amt), ...layout.readTransaction(tx) } as T;
  if (instructionId !== undefined && instructionId !== endToEndId) transaction.instructionId = instructionId;
  if (remittance !== undefined) transaction.remittanceInformation = remittance;
  return transaction;
}

/** A block: its transactions first, refusing none and totals (NbOfTxs, CtrlSum) that disagree with them. */
function readPayment<P, T extends Transaction>(layout: InitiationLayout<P, T>, pmt: At): P {
  const { element } = NAMES[layout.type];
  const transactions = all(pmt, element).map((tx) => readTransaction(layout, tx));
  if (transactions.length === 0) throw new Iso20022Error(`missing ${pmt.path}/${element}`);
  checkTotals(pmt.path, { count: optText(pmt, 'NbOfTxs'), sum: optText(pmt, 'CtrlSum') }, amountsOf(transactions));
  return layout.readPayment(pmt, transactions);
}

/** Reads an initiation the service must distrust; throws Iso20022Error with the reason. */
export function readInitiation<P, T extends Transaction>(xml: string, layout: InitiationLayout<P, T>): Initiation<P> {
  const root = parseDocument(xml, layout.type, NAMES[layout.type].root);
  const hdr = one(root, 'GrpHdr');
  const payments = all(root, 'PmtInf').map((pmt) => readPayment(layout, pmt));
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
