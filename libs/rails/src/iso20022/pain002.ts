import { OriginalMessageType, StatusReport } from './messages.js';
import { NOT_PROVIDED, readDateTime } from './parties.js';
import { At, Iso20022Error, XmlNode, all, buildDocument, compact, one, optText, parseDocument, text } from './xml.js';

const TYPE = 'pain.002.001.10';
const ROOT = 'CstmrPmtStsRpt';
const ORIGINAL_TYPES: readonly OriginalMessageType[] = ['pain.001.001.09', 'pain.008.001.08'];
/** AddtlInf is Max105Text. */
const MAX_INFO = 105;

type Transaction = StatusReport['transactions'][number];

function reasonXml(code?: string, info?: string): XmlNode[] | undefined {
  if (code === undefined && info === undefined) return undefined;
  return [compact({ Rsn: code ? { Cd: code } : undefined, AddtlInf: info?.slice(0, MAX_INFO) })];
}

function transactionXml(t: Transaction): XmlNode {
  return compact({
    OrgnlEndToEndId: t.endToEndId,
    TxSts: t.status,
    StsRsnInf: reasonXml(t.reasonCode, t.additionalInformation),
  });
}

/** Transactions grouped by the payment information block they came in, in order of first appearance. */
function byPaymentInformation(transactions: Transaction[]): Map<string, Transaction[]> {
  const groups = new Map<string, Transaction[]>();
  for (const t of transactions) {
    const key = t.paymentInformationId ?? NOT_PROVIDED;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return groups;
}

/** pain.002.001.10: a group status (optional) and a status per transaction, under OrgnlPmtInfAndSts. */
export function writeStatusReport(m: StatusReport): string {
  const body = compact({
    GrpHdr: { MsgId: m.messageId, CreDtTm: m.createdAt },
    OrgnlGrpInfAndSts: compact({
      OrgnlMsgId: m.originalMessageId,
      OrgnlMsgNmId: m.originalMessageType,
      GrpSts: m.groupStatus,
      StsRsnInf: reasonXml(m.groupReasonCode, m.groupAdditionalInformation),
    }),
    OrgnlPmtInfAndSts:
      m.transactions.length === 0
        ? undefined
        : [...byPaymentInformation(m.transactions)].map(([id, txs]) => ({
            OrgnlPmtInfId: id,
            TxInfAndSts: txs.map(transactionXml),
          })),
  });
  return buildDocument(TYPE, ROOT, body);
}

function readReason(at: At): { reasonCode?: string; additionalInformation?: string } {
  const reasons = all(at, 'StsRsnInf');
  if (reasons.length === 0) return {};
  const code = optText(reasons[0], 'Rsn/Cd') ?? optText(reasons[0], 'Rsn/Prtry');
  const info = all(reasons[0], 'AddtlInf')
    .map((a) => String(a.node['#text'] ?? ''))
    .join(' ');
  return compact({ reasonCode: code, additionalInformation: info || undefined }) as {
    reasonCode?: string;
    additionalInformation?: string;
  };
}

function readTransactions(root: At): Transaction[] {
  return all(root, 'OrgnlPmtInfAndSts').flatMap((pmt) => {
    const paymentInformationId = text(pmt, 'OrgnlPmtInfId');
    return all(pmt, 'TxInfAndSts').map((tx) => {
      const status = optText(tx, 'TxSts') ?? optText(pmt, 'PmtInfSts');
      if (!status) throw new Iso20022Error(`missing ${tx.path}/TxSts`);
      const r = readReason(tx);
      const t: Transaction = { endToEndId: text(tx, 'OrgnlEndToEndId'), status };
      if (r.reasonCode !== undefined) t.reasonCode = r.reasonCode;
      if (r.additionalInformation !== undefined) t.additionalInformation = r.additionalInformation;
      if (paymentInformationId !== NOT_PROVIDED) t.paymentInformationId = paymentInformationId;
      return t;
    });
  });
}

/** Reads a pain.002.001.10 the service must distrust; throws Iso20022Error with the reason. */
export function readStatusReport(xml: string): StatusReport {
  const root = parseDocument(xml, TYPE, ROOT);
  const hdr = one(root, 'GrpHdr');
  const grp = one(root, 'OrgnlGrpInfAndSts');
  const originalType = text(grp, 'OrgnlMsgNmId');
  if (!ORIGINAL_TYPES.includes(originalType as OriginalMessageType))
    throw new Iso20022Error(`${grp.path}/OrgnlMsgNmId ${originalType} is not pain.001.001.09 or pain.008.001.08`);
  const report: StatusReport = {
    messageId: text(hdr, 'MsgId'),
    createdAt: readDateTime(hdr, 'CreDtTm'),
    originalMessageId: text(grp, 'OrgnlMsgId'),
    originalMessageType: originalType as OriginalMessageType,
    transactions: readTransactions(root),
  };
  const groupStatus = optText(grp, 'GrpSts');
  const groupReason = readReason(grp);
  if (groupStatus !== undefined) report.groupStatus = groupStatus;
  if (groupReason.reasonCode !== undefined) report.groupReasonCode = groupReason.reasonCode;
  if (groupReason.additionalInformation !== undefined)
    report.groupAdditionalInformation = groupReason.additionalInformation;
  if (!report.groupStatus && report.transactions.length === 0)
    throw new Iso20022Error(`${root.path} has neither a group status nor a transaction status`);
  return report;
}
