/** ISO 20022 codecs for the bank's host-to-host file interface: pain.001/008 out, pain.002 and camt.053/054 in. */
export * from './messages.js';
export { Iso20022Error, MAX_DOCUMENT_BYTES, documentNamespace, messageTypeOf } from './xml.js';
export { decimalText, decimalsOf } from './amount.js';
export { writePain001, readPain001 } from './pain001.js';
export { writePain008, readPain008 } from './pain008.js';
export { writeStatusReport, readStatusReport } from './pain002.js';
export { writeNotification, readNotification, readNotifications } from './camt054.js';
export { writeStatement, readStatement, readStatements } from './camt053.js';
export type { BankFileMessage } from './bank-file.js';
export { readBankFile } from './bank-file.js';
