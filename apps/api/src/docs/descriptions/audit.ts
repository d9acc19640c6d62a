/** OpenAPI prose of the audit routes (the descriptions the controllers' decorators name). */

const PAGING = 'Cursor-paginated in event order. A resource of another platform answers 404.';
export const HISTORY =
  'Every event of the resource in the order it was recorded, from the event log: recordedAt (store time), ' +
  'occurredAt (the business time on the platform clock, when the event carries one), type, actor and ' +
  'correlation id (from the event metadata) and the event data as `changes`, with secret material, hashes ' +
  `of secrets, OTPs and keys shown as [REDACTED]. ${PAGING}`;

export const STATE =
  'resource is cards, transactions, internal-accounts or customers. The resource folded with the write ' +
  'path from the events whose time is at or before asOf, shown as the live endpoint shows it (an internal ' +
  'account with its balance then). An event’s time is its business time (the platform clock, which a ' +
  'sandbox platform may have advanced) when it carries one; an event without one takes the time of the ' +
  'event decided with it; folding stops at the first event after asOf. A resource that did not exist yet, ' +
  'or belongs to another platform, answers 404.';

/** Descriptions of the routes of audit.controller.ts, by handler. */
export const AUDIT_TEXT = {
  historyResponse200: 'A page of events, oldest first',
  transaction: `${HISTORY} A transaction created from a quote shows the quote's events too (they share one stream).`,
  transactionLedger:
    'The transfers of the platform ledger made for the transaction: holds (PENDING), their posts and voids, and ' +
    'settled transfers, each with the debited and credited account, amount, currency and code, in ledger ' +
    `order. ${PAGING}`,
  account:
    'The ledger postings that touch the account, from the platform ledger stream in order, each with the ' +
    'posted balance (credits less debits, minor units) right after it. PENDING holds do not change the ' +
    `posted balance; POSTED and VOIDED resolve them. ${PAGING}`,

  overview:
    'What the operations console shows as health, for the calling platform only: the position of its newest ' +
    'event and how many of its events the read models have not applied yet, its jobs waiting, delayed, ' +
    'running and dead in each queue, resource counts, webhook deliveries by status, settlement balances ' +
    'and its newest events. Nothing shows how busy other platforms are.',
  setAside:
    "The calling platform's events that a shared processor (the webhook dispatcher, a projection, the card " +
    'reactor) could not handle and stepped over so that every other event goes on: which processor, where in ' +
    'the log, the event type and stream, and the failure (its kind and message). A failure that says a store ' +
    'is unavailable is retried from the checkpoint instead; any other is tried three times (waiting 0.1 s, then ' +
    '1 s) before the event is set aside. Newest first, cursor-paginated.',
};
