import { amountXml } from './amount.js';
import { InitiationLayout, readInitiation, writeInitiation } from './initiation.js';
import { CreditTransfer, Pain001 } from './messages.js';
import { accountXml, agentXml, hasAgent, partyXml, readAgent, readBankAccount, readDateChoice } from './parties.js';
import { one, optional, text } from './xml.js';

type Payment = Pain001['payments'][number];

/** Credit transfers: PmtMtd TRF, the debtor per block, the creditor per transaction. */
const LAYOUT: InitiationLayout<Payment, CreditTransfer> = {
  type: 'pain.001.001.09',
  transactionsOf: (p) => p.transfers,
  paymentXml: (p, where) => ({
    ReqdExctnDt: { Dt: p.requestedExecutionDate },
    Dbtr: partyXml(p.debtor.name),
    DbtrAcct: accountXml(p.debtor, `${where}/DbtrAcct`),
    DbtrAgt: agentXml(p.debtor),
  }),
  transactionXml: (t, where) => ({
    Amt: { InstdAmt: amountXml(t.amount, where) },
    CdtrAgt: hasAgent(t.creditor) ? agentXml(t.creditor) : undefined,
    Cdtr: partyXml(t.creditor.name),
    CdtrAcct: accountXml(t.creditor, where),
  }),
  amountOf: (tx) => one(one(tx, 'Amt'), 'InstdAmt'),
  readTransaction: (tx) => ({
    creditor: { ...readBankAccount(tx, 'Cdtr', 'CdtrAcct'), ...readAgent(optional(tx, 'CdtrAgt')) },
  }),
  readPayment: (pmt, transfers) => ({
    paymentInformationId: text(pmt, 'PmtInfId'),
    requestedExecutionDate: readDateChoice(pmt, 'ReqdExctnDt'),
    debtor: readBankAccount(pmt, 'Dbtr', 'DbtrAcct', 'DbtrAgt'),
    transfers,
  }),
};

/** pain.001.001.09 with the group header's NbOfTxs and CtrlSum and each PmtInf's, PmtMtd TRF. */
export function writePain001(m: Pain001): string {
  return writeInitiation(LAYOUT, m);
}

/** Reads a pain.001.001.09 the service must distrust; throws Iso20022Error with the reason. */
export function readPain001(xml: string): Pain001 {
  return readInitiation(xml, LAYOUT);
}
