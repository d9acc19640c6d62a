import { checkTotals, controlSum, formatAmount, parseAmount } from './amount.js';
import { DirectDebit, Pain008 } from './messages.js';
import {
  accountXml,
  id35,
  remittanceXml,
  agentXml,
  partyXml,
  readAgent,
  readBankAccount,
  readDate,
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

const TYPE = 'pain.008.001.08';
const ROOT = 'CstmrDrctDbtInitn';

/** CdtrSchmeId as SEPA writes it: Id/PrvtId/Othr/Id with SchmeNm/Prtry SEPA. */
function schemeIdXml(id: string): XmlNode {
  return { Id: { PrvtId: { Othr: { Id: id, SchmeNm: { Prtry: 'SEPA' } } } } };
}

function collectionXml(c: DirectDebit, where: string): XmlNode {
  return compact({
    PmtId: { InstrId: id35(c.instructionId ?? c.endToEndId, where), EndToEndId: id35(c.endToEndId, where) },
    InstdAmt: { '@_Ccy': c.amount.currency, '#text': formatAmount(c.amount, where) },
    DrctDbtTx: { MndtRltdInf: { MndtId: id35(c.mandate.id, where), DtOfSgntr: c.mandate.signedOn } },
    DbtrAgt: agentXml(c.debtor),
    Dbtr: partyXml(c.debtor.name),
    DbtrAcct: accountXml(c.debtor, where),
    RmtInf: remittanceXml(c.remittanceInformation, where),
  });
}

/** pain.008.001.08 with NbOfTxs and CtrlSum in the group header and each PmtInf, PmtMtd DD. */
export function writePain008(m: Pain008): string {
  if (m.payments.length === 0 || m.payments.some((p) => p.collections.length === 0))
    throw new Iso20022Error('a pain.008 needs at least one payment information block, each with a collection');
  const every = m.payments.flatMap((p) => p.collections.map((c) => c.amount));
  const body = {
    GrpHdr: {
      MsgId: id35(m.messageId, 'GrpHdr/MsgId'),
      CreDtTm: m.createdAt,
      NbOfTxs: String(every.length),
      CtrlSum: controlSum(every),
      InitgPty: partyXml(m.initiatingPartyName),
    },
    PmtInf: m.payments.map((p, i) =>
      compact({
        PmtInfId: id35(p.paymentInformationId, `PmtInf[${i + 1}]/PmtInfId`),
        PmtMtd: 'DD',
        NbOfTxs: String(p.collections.length),
        CtrlSum: controlSum(p.collections.map((c) => c.amount)),
        ReqdColltnDt: p.requestedCollectionDate,
        Cdtr: partyXml(p.creditor.name),
        CdtrAcct: accountXml(p.creditor, `PmtInf[${i + 1}]/CdtrAcct`),
        CdtrAgt: agentXml(p.creditor),
        CdtrSchmeId: p.creditorSchemeId ? schemeIdXml(p.creditorSchemeId) : undefined,
        DrctDbtTxInf: p.collections.map((c, j) => collectionXml(c, `PmtInf[${i + 1}]/DrctDbtTxInf[${j + 1}]`)),
      }),
    ),
  };
  return buildDocument(TYPE, ROOT, body);
}

function readCollection(tx: At): DirectDebit {
  const amt = one(tx, 'InstdAmt');
  const endToEndId = text(tx, 'PmtId/EndToEndId');
  const instructionId = optText(tx, 'PmtId/InstrId');
  const mandate = one(one(tx, 'DrctDbtTx'), 'MndtRltdInf');
  const remittance = readRemittance(tx);
  const collection: DirectDebit = {
    endToEndId,
    amount: parseAmount(ownText(amt), attr(amt, 'Ccy'), amt.path),
    debtor: readBankAccount(tx, 'Dbtr', 'DbtrAcct', 'DbtrAgt'),
    mandate: { id: text(mandate, 'MndtId'), signedOn: readDate(mandate, 'DtOfSgntr') },
  };
  if (instructionId !== undefined && instructionId !== endToEndId) collection.instructionId = instructionId;
  if (remittance !== undefined) collection.remittanceInformation = remittance;
  return collection;
}

function readSchemeId(pmt: At): string | undefined {
  const scheme = optional(pmt, 'CdtrSchmeId');
  if (!scheme) return undefined;
  return optText(scheme, 'Id/PrvtId/Othr/Id') ?? optText(scheme, 'Id/OrgId/Othr/Id');
}

function readPayment(pmt: At): Pain008['payments'][number] {
  const collections = all(pmt, 'DrctDbtTxInf').map(readCollection);
  if (collections.length === 0) throw new Iso20022Error(`missing ${pmt.path}/DrctDbtTxInf`);
  checkTotals(
    pmt.path,
    { count: optText(pmt, 'NbOfTxs'), sum: optText(pmt, 'CtrlSum') },
    collections.map((c) => c.amount),
  );
  const creditor = { ...readBankAccount(pmt, 'Cdtr', 'CdtrAcct'), ...readAgent(optional(pmt, 'CdtrAgt')) };
  const payment: Pain008['payments'][number] = {
    paymentInformationId: text(pmt, 'PmtInfId'),
    requestedCollectionDate: readDate(pmt, 'ReqdColltnDt'),
    creditor,
    collections,
  };
  const schemeId = readSchemeId(pmt);
  if (schemeId !== undefined) payment.creditorSchemeId = schemeId;
  return payment;
}

/** Reads a pain.008.001.08 the service must distrust; throws Iso20022Error with the reason. */
export function readPain008(xml: string): Pain008 {
  const root = parseDocument(xml, TYPE, ROOT);
  const hdr = one(root, 'GrpHdr');
  const payments = all(root, 'PmtInf').map(readPayment);
  if (payments.length === 0) throw new Iso20022Error(`missing ${root.path}/PmtInf`);
  checkTotals(
    hdr.path,
    { count: text(hdr, 'NbOfTxs'), sum: optText(hdr, 'CtrlSum') },
    payments.flatMap((p) => p.collections.map((c) => c.amount)),
  );
  return {
    messageId: text(hdr, 'MsgId'),
    createdAt: readDateTime(hdr, 'CreDtTm'),
    initiatingPartyName: optText(hdr, 'InitgPty/Nm') ?? '',
    payments,
  };
}
