import { checkTotals, controlSum, formatAmount, parseAmount } from './amount.js';
import { CreditTransfer, Pain001 } from './messages.js';
import {
  accountXml,
  id35,
  remittanceXml,
  agentXml,
  hasAgent,
  partyXml,
  readAgent,
  readBankAccount,
  readDateChoice,
  readDateTime,
  readRemittance,
} from './parties.js';
import {
  At,
  Iso20022Error,
  XmlNode,
  all,
  attr,
  buildDocument,
  compact,
  one,
  optText,
  optional,
  ownText,
  parseDocument,
  text,
} from './xml.js';

const TYPE = 'pain.001.001.09';
const ROOT = 'CstmrCdtTrfInitn';

function transferXml(t: CreditTransfer, where: string): XmlNode {
  return compact({
    PmtId: { InstrId: id35(t.instructionId ?? t.endToEndId, where), EndToEndId: id35(t.endToEndId, where) },
    Amt: { InstdAmt: { '@_Ccy': t.amount.currency, '#text': formatAmount(t.amount, where) } },
    CdtrAgt: hasAgent(t.creditor) ? agentXml(t.creditor) : undefined,
    Cdtr: partyXml(t.creditor.name),
    CdtrAcct: accountXml(t.creditor, where),
    RmtInf: remittanceXml(t.remittanceInformation, where),
  });
}

/** pain.001.001.09 with the group header's NbOfTxs and CtrlSum and each PmtInf's, PmtMtd TRF. */
export function writePain001(m: Pain001): string {
  if (m.payments.length === 0 || m.payments.some((p) => p.transfers.length === 0))
    throw new Iso20022Error('a pain.001 needs at least one payment information block, each with a transfer');
  const every = m.payments.flatMap((p) => p.transfers.map((t) => t.amount));
  const body = {
    GrpHdr: {
      MsgId: id35(m.messageId, 'GrpHdr/MsgId'),
      CreDtTm: m.createdAt,
      NbOfTxs: String(every.length),
      CtrlSum: controlSum(every),
      InitgPty: partyXml(m.initiatingPartyName),
    },
    PmtInf: m.payments.map((p, i) => ({
      PmtInfId: id35(p.paymentInformationId, `PmtInf[${i + 1}]/PmtInfId`),
      PmtMtd: 'TRF',
      NbOfTxs: String(p.transfers.length),
      CtrlSum: controlSum(p.transfers.map((t) => t.amount)),
      ReqdExctnDt: { Dt: p.requestedExecutionDate },
      Dbtr: partyXml(p.debtor.name),
      DbtrAcct: accountXml(p.debtor, `PmtInf[${i + 1}]/DbtrAcct`),
      DbtrAgt: agentXml(p.debtor),
      CdtTrfTxInf: p.transfers.map((t, j) => transferXml(t, `PmtInf[${i + 1}]/CdtTrfTxInf[${j + 1}]`)),
    })),
  };
  return buildDocument(TYPE, ROOT, body);
}

function readTransfer(tx: At): CreditTransfer {
  const amt = one(one(tx, 'Amt'), 'InstdAmt');
  const endToEndId = text(tx, 'PmtId/EndToEndId');
  const instructionId = optText(tx, 'PmtId/InstrId');
  const remittance = readRemittance(tx);
  const transfer: CreditTransfer = {
    endToEndId,
    amount: parseAmount(ownText(amt), attr(amt, 'Ccy'), amt.path),
    creditor: { ...readBankAccount(tx, 'Cdtr', 'CdtrAcct'), ...readAgent(optional(tx, 'CdtrAgt')) },
  };
  if (instructionId !== undefined && instructionId !== endToEndId) transfer.instructionId = instructionId;
  if (remittance !== undefined) transfer.remittanceInformation = remittance;
  return transfer;
}

function readPayment(pmt: At): Pain001['payments'][number] {
  const transfers = all(pmt, 'CdtTrfTxInf').map(readTransfer);
  if (transfers.length === 0) throw new Iso20022Error(`missing ${pmt.path}/CdtTrfTxInf`);
  checkTotals(
    pmt.path,
    { count: optText(pmt, 'NbOfTxs'), sum: optText(pmt, 'CtrlSum') },
    transfers.map((t) => t.amount),
  );
  return {
    paymentInformationId: text(pmt, 'PmtInfId'),
    requestedExecutionDate: readDateChoice(pmt, 'ReqdExctnDt'),
    debtor: readBankAccount(pmt, 'Dbtr', 'DbtrAcct', 'DbtrAgt'),
    transfers,
  };
}

/** Reads a pain.001.001.09 the service must distrust; throws Iso20022Error with the reason. */
export function readPain001(xml: string): Pain001 {
  const root = parseDocument(xml, TYPE, ROOT);
  const hdr = one(root, 'GrpHdr');
  const payments = all(root, 'PmtInf').map(readPayment);
  if (payments.length === 0) throw new Iso20022Error(`missing ${root.path}/PmtInf`);
  checkTotals(
    hdr.path,
    { count: text(hdr, 'NbOfTxs'), sum: optText(hdr, 'CtrlSum') },
    payments.flatMap((p) => p.transfers.map((t) => t.amount)),
  );
  return {
    messageId: text(hdr, 'MsgId'),
    createdAt: readDateTime(hdr, 'CreDtTm'),
    initiatingPartyName: optText(hdr, 'InitgPty/Nm') ?? '',
    payments,
  };
}
