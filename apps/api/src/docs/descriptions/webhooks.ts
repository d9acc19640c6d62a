/** Prose of the OpenAPI document's webhooks: the webhook families' section and the webhooks routes. */

/** The summary and description of each webhook family in the OpenAPI document's `webhooks:` section. */
export interface WebhookFamilyText {
  summary: string;
  description: string;
}

export const WEBHOOK_FAMILIES = {
  customer: {
    summary: 'Customer KYC or KYB status changed',
    description:
      'An individual’s KYC (`CUSTOMER.KYC_<STATUS>`) or a business’s KYB (`CUSTOMER.KYB_<STATUS>`, its own check ' +
      'and its beneficial owners together) changed.',
  },
  'internal-account': {
    summary: 'Internal account balance or status updated',
    description:
      'A posting changed the balance of an internal account (`INTERNAL_ACCOUNT.BALANCE_UPDATED`), or its status ' +
      'changed (`INTERNAL_ACCOUNT.STATUS_UPDATED`: activated by KYC approval, closed with its deleted customer).',
  },
  verification: {
    summary: 'Verification recorded',
    description:
      'A verification of a customer was recorded: `VERIFICATION.<verificationStatus>` with the Verification.',
  },
  'outgoing-payment': {
    summary: 'Outgoing payment status',
    description:
      'A payment the platform sent (a quote executed, a transfer out) changed status: `PENDING`, `PROCESSING`, ' +
      '`COMPLETED`, `FAILED`, `EXPIRED` follow the status (nothing for CREATED); `REFUND_PENDING` when money ' +
      'starts going back to the source, `REFUND_COMPLETED` when it is back (a payment returned after completion, ' +
      'or ending REJECTED or REFUNDED), `REFUND_FAILED` when payout and refund both failed; these carry `refund`.',
  },
  'incoming-payment': {
    summary: 'Incoming payment: approval request and status',
    description:
      'A payment to one of the platform’s customers changed status: `COMPLETED`, or `FAILED` for every way of not ' +
      'completing (FAILED, REJECTED, REFUNDED, EXPIRED). `INCOMING_PAYMENT.PENDING` asks the platform to approve ' +
      'an UMA payment, with `requestedReceiverCustomerInfoFields` (what the sender’s side wants to know about ' +
      'the receiver and the customer’s registration lacks). The reply decides: 200 approves (give the requested ' +
      'fields in `receiverCustomerInfo`; a mandatory one missing fails the payment with ' +
      '`MISSING_MANDATORY_PAYEE_DATA`), 202 leaves it pending for `POST /transactions/{id}/approve` or ' +
      '`/reject`, 403 rejects it (REJECTED), 422 (`requiredFields`: counterparty information the platform ' +
      'needs and did not get) rejects it as well. Any other reply is a failed delivery, retried until the ' +
      'payment is decided or times out (`PAYMENT_APPROVAL_TIMED_OUT`).',
  },
  invitation: {
    summary: 'Invitation claimed',
    description: 'An invitation of one of the platform’s customers was claimed.',
  },
  card: {
    summary: 'Card state or funding sources changed',
    description: 'A card moved to another state, or its funding sources changed.',
  },
  'agent-action': {
    summary: 'Agent action pending approval',
    description:
      'An agent’s spend waits for the platform’s approval (`POST /agents/{agentId}/actions/{actionId}/approve` ' +
      'or `/reject`); `data` is the whole AgentAction with its quote or transfer.',
  },
  'bulk-upload': {
    summary: 'Bulk customer import finished',
    description:
      'A bulk customer import finished; `data` is the job with its first errors (`errorsTruncated: true` when ' +
      'more were left out).',
  },
  'bank-reconciliation': {
    summary: 'A bank statement day reconciled',
    description:
      'A production platform’s bank statement (camt.053) was reconciled against the ledger: ' +
      '`BANK_RECONCILIATION.DAY_CLOSED` when it has no break, `BANK_RECONCILIATION.BREAKS_FOUND` with each break ' +
      'otherwise; `data` is the day’s reconciliation with its rail’s currency.',
  },
  test: {
    summary: 'Test webhook',
    description: 'Sent by `POST /sandbox/webhooks/test` to check a receiver; never retried.',
  },
} satisfies Record<string, WebhookFamilyText>;

/** Descriptions of the routes of webhooks.controller.ts, by handler. */
export const WEBHOOKS_TEXT = {
  list: 'Newest first unless sortOrder=asc.',
  get: 'With its newest attempts (status code, latency, response excerpt, error).',
  redeliver:
    'Queues the same webhook (same id and body) again to the current endpoint with a fresh retry ' +
    'budget. 409 unless the delivery is FAILED or DEAD.',
  redeliverResponse202: 'The delivery, PENDING again',
  test:
    'Sends a TEST webhook to the configured endpoint now and reports the receiver’s status and the first 256 ' +
    'characters of its body; never retried. A delivery that failed (no 2xx or 409 reply) is 400 ' +
    '`WEBHOOK_DELIVERY_ERROR` with `response_status`, `url`, `response_body` in `details` (`response_status` ' +
    '0 when no response arrived, with one generic `error`: a refused address, a failed connection and a ' +
    'timeout look alike). 400 `WEBHOOK_ENDPOINT_NOT_SET` without an endpoint; at most 10 per platform per ' +
    'minute (429).',
};
