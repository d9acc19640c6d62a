/** What camt.053 and camt.054 share as messages: a group header, then one report (Stmt, Ntfctn) per account. */
import { MessageType } from './messages.js';
import { readDateTime } from './parties.js';
import { At, Iso20022Error, XmlNode, all, buildDocument, one, parseDocument, text } from './xml.js';

export interface ReportLayout {
  type: MessageType;
  /** The message element under Document (BkToCstmrStmt, BkToCstmrDbtCdtNtfctn). */
  root: string;
  /** The report element, one per account (Stmt, Ntfctn). */
  element: string;
  /** The reader of several accounts, named when the reader of one is given a file with more. */
  readerOfSeveral: string;
}

export interface ReportHeader {
  messageId: string;
  createdAt: string;
}

/** The document with its group header and the one report `report`. */
export function writeReport(layout: ReportLayout, m: ReportHeader, report: XmlNode): string {
  const body = { GrpHdr: { MsgId: m.messageId, CreDtTm: m.createdAt }, [layout.element]: report };
  return buildDocument(layout.type, layout.root, body);
}

/** Reads every report of a file the service must distrust, each by `read` with the group header's fields. */
export function readReports<T>(xml: string, layout: ReportLayout, read: (report: At, header: ReportHeader) => T): T[] {
  const root = parseDocument(xml, layout.type, layout.root);
  const hdr = one(root, 'GrpHdr');
  const header = { messageId: text(hdr, 'MsgId'), createdAt: readDateTime(hdr, 'CreDtTm') };
  const reports = all(root, layout.element);
  if (reports.length === 0) throw new Iso20022Error(`missing ${root.path}/${layout.element}`);
  return reports.map((report) => read(report, header));
}

/** The one report of a file of one account; refuses a file with several. */
export function onlyReport<T>(layout: ReportLayout, reports: T[]): T {
  if (reports.length > 1)
    throw new Iso20022Error(
      `the file holds ${reports.length} ${layout.element}; ${layout.readerOfSeveral} reads several accounts`,
    );
  return reports[0];
}
