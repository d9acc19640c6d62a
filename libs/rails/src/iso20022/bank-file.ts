import { readStatements } from './camt053.js';
import { readNotifications } from './camt054.js';
import { Notification, Statement, StatusReport } from './messages.js';
import { readStatusReport } from './pain002.js';
import { Iso20022Error, documentNamespace, messageTypeOf } from './xml.js';

/** A file the bank sends, read by the reader its namespace names. */
export type BankFileMessage =
  | { type: 'pain.002.001.10'; report: StatusReport }
  | { type: 'camt.054.001.08'; notifications: Notification[] }
  | { type: 'camt.053.001.08'; statements: Statement[] };

/**
 * Reads a file from the bank's inbox folder whatever its message: pain.002, camt.054 or camt.053.
 * Throws Iso20022Error for anything else or anything its reader refuses.
 */
export function readBankFile(xml: string): BankFileMessage {
  const type = messageTypeOf(xml);
  switch (type) {
    case 'pain.002.001.10':
      return { type, report: readStatusReport(xml) };
    case 'camt.054.001.08':
      return { type, notifications: readNotifications(xml) };
    case 'camt.053.001.08':
      return { type, statements: readStatements(xml) };
    default: {
      const ns = typeof xml === 'string' ? documentNamespace(xml) : undefined;
      throw new Iso20022Error(`not a bank file the service reads (namespace ${ns ?? 'missing'})`);
    }
  }
}
