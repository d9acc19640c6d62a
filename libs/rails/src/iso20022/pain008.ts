import { amountXml } from './amount.js';
import { InitiationLayout, readInitiation, writeInitiation } from './initiation.js';
import { DirectDebit, Pain008 } from './messages.js';
import { accountXml, agentXml, id35, partyXml, readAgent, readBankAccount, readDate } from './parties.js';
import { At, XmlNode, one, optText, optional, text } from './xml.js';

type Payment = Pain008['payments'][number];

/** CdtrSchmeId as SEPA writes it: Id/PrvtId/Othr/Id with SchmeNm/Prtry SEPA. */
function schemeIdXml(id: string): XmlNode {
  return { Id: { PrvtId: { Othr: { Id: id, SchmeNm: { Prtry: 'SEPA' } } } } };
}

function readSchemeId(pmt: At): string | undefined {
  const scheme = optional(pmt, 'CdtrSchmeId');
  if (!scheme) return undefined;
  return optText(scheme, 'Id/PrvtId/Othr/Id') ?? optText(scheme, 'Id/OrgId/Othr/Id');
}

function readPayment(pmt: At, collections: DirectDebit[]): Payment {
  const creditor = { ...readBankAccount(pmt, 'Cdtr', 'CdtrAcct'), ...readAgent(optional(pmt, 'CdtrAgt')) };
  const payment: Payment = {
    paymentInformationId: text(pmt, 'PmtInfId'),
    requestedCollectionDate: readDate(pmt, 'ReqdColltnDt'),
    creditor,
    collections,
  };
  const schemeId = readSchemeId(pmt);
  if (schemeId !== undefined) payment.creditorSchemeId = schemeId;
  return payment;
}

/** Direct debits: PmtMtd DD, the creditor (and its scheme id) per block, the debtor and mandate per collection. */
const LAYOUT: InitiationLayout<Payment, DirectDebit> = {
  type: 'pain.008.001.08',
  transactionsOf: (p) => p.collections,
  paymentXml: (p, where) => ({
    ReqdColltnDt: p.requestedCollectionDate,
    Cdtr: partyXml(p.creditor.name),
    CdtrAcct: accountXml(p.creditor, `${where}/CdtrAcct`),
    CdtrAgt: agentXml(p.creditor),
    CdtrSchmeId: p.creditorSchemeId ? schemeIdXml(p.creditorSchemeId) : undefined,
  }),
  transactionXml: (c, where) => ({
    InstdAmt: amountXml(c.amount, where),
    DrctDbtTx: { MndtRltdInf: { MndtId: id35(c.mandate.id, where), DtOfSgntr: c.mandate.signedOn } },
    DbtrAgt: agentXml(c.debtor),
    Dbtr: partyXml(c.debtor.name),
    DbtrAcct: accountXml(c.debtor, where),
  }),
  amountOf: (tx) => one(tx, 'InstdAmt'),
  readTransaction: (tx) => {
    const mandate = one(one(tx, 'DrctDbtTx'), 'MndtRltdInf');
    return {
      debtor: readBankAccount(tx, 'Dbtr', 'DbtrAcct', 'DbtrAgt'),
      mandate: { id: text(mandate, 'MndtId'), signedOn: readDate(mandate, 'DtOfSgntr') },
    };
  },
  readPayment,
};

/** pain.008.001.08 with NbOfTxs and CtrlSum in the group header and each PmtInf, PmtMtd DD. */
export function writePain008(m: Pain008): string {
  return writeInitiation(LAYOUT, m);
}

/** Reads a pain.008.001.08 the service must distrust; throws Iso20022Error with the reason. */
export function readPain008(xml: string): Pain008 {
  return readInitiation(xml, LAYOUT);
}
