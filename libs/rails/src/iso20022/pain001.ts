import { amountXml } from './amount.js';
import {
  InitiationLayout,
  paymentIdXml,
  paymentInfoXml,
  readInitiation,
  readTransaction,
  readTransactions,
  writeInitiation,
} from './initiation.js';
import { CreditTransfer, Pain001 } from './messages.js';
import {
  accountXml,
  agentXml,
  hasAgent,
  partyXml,
  readAgent,
  readBankAccount,
  readDateChoice,
  remittanceXml,
} from './parties.js';
import { At, XmlNode, compact, one, optional, text } from './xml.js';

type Payment = Pain001['payments'][number];

const LAYOUT: InitiationLayout<Payment> = {
  type: 'pain.001.001.09',
  root: 'CstmrCdtTrfInitn',
  element: 'CdtTrfTxInf',
  noun: 'transfer',
  transactionsOf: (p) => p.transfers,
};

function transferXml(t: CreditTransfer, where: string): XmlNode {
  return compact({
    PmtId: paymentIdXml(t, where),
    Amt: { InstdAmt: amountXml(t.amount, where) },
    CdtrAgt: hasAgent(t.creditor) ? agentXml(t.creditor) : undefined,
    Cdtr: partyXml(t.creditor.name),
    CdtrAcct: accountXml(t.creditor, where),
    RmtInf: remittanceXml(t.remittanceInformation, where),
  });
}

function paymentXml(p: Payment, where: string): XmlNode {
  return {
    ...paymentInfoXml(p.paymentInformationId, where, 'TRF', p.transfers),
    ReqdExctnDt: { Dt: p.requestedExecutionDate },
    Dbtr: partyXml(p.debtor.name),
    DbtrAcct: accountXml(p.debtor, `${where}/DbtrAcct`),
    DbtrAgt: agentXml(p.debtor),
    CdtTrfTxInf: p.transfers.map((t, j) => transferXml(t, `${where}/CdtTrfTxInf[${j + 1}]`)),
  };
}

/** pain.001.001.09 with the group header's NbOfTxs and CtrlSum and each PmtInf's, PmtMtd TRF. */
export function writePain001(m: Pain001): string {
  return writeInitiation(LAYOUT, m, paymentXml);
}

function readTransfer(tx: At): CreditTransfer {
  return readTransaction<CreditTransfer>(tx, one(one(tx, 'Amt'), 'InstdAmt'), () => ({
    creditor: { ...readBankAccount(tx, 'Cdtr', 'CdtrAcct'), ...readAgent(optional(tx, 'CdtrAgt')) },
  }));
}

function readPayment(pmt: At): Payment {
  const transfers = readTransactions(LAYOUT, pmt, readTransfer);
  return {
    paymentInformationId: text(pmt, 'PmtInfId'),
    requestedExecutionDate: readDateChoice(pmt, 'ReqdExctnDt'),
    debtor: readBankAccount(pmt, 'Dbtr', 'DbtrAcct', 'DbtrAgt'),
    transfers,
  };
}

/** Reads a pain.001.001.09 the service must distrust; throws Iso20022Error with the reason. */
export function readPain001(xml: string): Pain001 {
  return readInitiation(xml, LAYOUT, readPayment);
}
