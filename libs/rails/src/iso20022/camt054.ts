import { Notification } from './messages.js';
import { entryXml, readEntry, readReportedAccount, reportedAccountXml } from './entries.js';
import { readDateTime } from './parties.js';
import { Iso20022Error, all, buildDocument, one, parseDocument, text } from './xml.js';

const TYPE = 'camt.054.001.08';
const ROOT = 'BkToCstmrDbtCdtNtfctn';

/** camt.054.001.08: one Ntfctn for the account, its entries booked (BOOK) or pending (PDNG). */
export function writeNotification(m: Notification): string {
  const body = {
    GrpHdr: { MsgId: m.messageId, CreDtTm: m.createdAt },
    Ntfctn: {
      Id: m.notificationId,
      CreDtTm: m.createdAt,
      Acct: reportedAccountXml(m.account, 'Ntfctn/Acct'),
      Ntry: m.entries.map((e, i) => entryXml(e, `Ntry[${i + 1}]`)),
    },
  };
  return buildDocument(TYPE, ROOT, body);
}

/** Reads every Ntfctn (one per account) of a camt.054.001.08 the service must distrust. */
export function readNotifications(xml: string): Notification[] {
  const root = parseDocument(xml, TYPE, ROOT);
  const hdr = one(root, 'GrpHdr');
  const messageId = text(hdr, 'MsgId');
  const createdAt = readDateTime(hdr, 'CreDtTm');
  const notifications = all(root, 'Ntfctn');
  if (notifications.length === 0) throw new Iso20022Error(`missing ${root.path}/Ntfctn`);
  return notifications.map((ntfctn) => ({
    messageId,
    createdAt,
    notificationId: text(ntfctn, 'Id'),
    account: readReportedAccount(ntfctn),
    entries: all(ntfctn, 'Ntry').map(readEntry),
  }));
}

/** Reads a camt.054.001.08 of one account; throws Iso20022Error with the reason (readNotifications for several). */
export function readNotification(xml: string): Notification {
  const notifications = readNotifications(xml);
  if (notifications.length > 1)
    throw new Iso20022Error(`the file holds ${notifications.length} Ntfctn; readNotifications reads several accounts`);
  return notifications[0];
}
