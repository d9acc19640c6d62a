import { Notification } from './messages.js';
import { entryXml, readEntry, readReportedAccount, reportedAccountXml } from './entries.js';
import { ReportLayout, onlyReport, readReports, writeReport } from './reports.js';
import { all, text } from './xml.js';

const LAYOUT: ReportLayout = {
  type: 'camt.054.001.08',
  root: 'BkToCstmrDbtCdtNtfctn',
  element: 'Ntfctn',
  readerOfSeveral: 'readNotifications',
};

/** camt.054.001.08: one Ntfctn for the account, its entries booked (BOOK) or pending (PDNG). */
export function writeNotification(m: Notification): string {
  return writeReport(LAYOUT, m, {
    Id: m.notificationId,
    CreDtTm: m.createdAt,
    Acct: reportedAccountXml(m.account, 'Ntfctn/Acct'),
    Ntry: m.entries.map((e, i) => entryXml(e, `Ntry[${i + 1}]`)),
  });
}

/** Reads every Ntfctn (one per account) of a camt.054.001.08 the service must distrust. */
export function readNotifications(xml: string): Notification[] {
  return readReports(xml, LAYOUT, (ntfctn, header) => ({
    ...header,
    notificationId: text(ntfctn, 'Id'),
    account: readReportedAccount(ntfctn),
    entries: all(ntfctn, 'Ntry').map(readEntry),
  }));
}

/** Reads a camt.054.001.08 of one account; throws Iso20022Error with the reason (readNotifications for several). */
export function readNotification(xml: string): Notification {
  return onlyReport(LAYOUT, readNotifications(xml));
}
