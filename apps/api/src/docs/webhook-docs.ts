import { INCOMING_PAYMENT_WEBHOOK_TYPES, OUTGOING_PAYMENT_WEBHOOK_TYPES } from '#domain/webhooks/payment-webhooks.js';

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Statuses of a schema's enum property, read from the components (so the list follows the resource's schema). */
function statuses(components: Record<string, Schema>, schema: string, property: string): string[] {
  const properties = components[schema]?.properties as Record<string, { enum?: string[] }> | undefined;
  const values = properties?.[property]?.enum;
  if (!values) throw new Error(`the ${schema} schema has no enum ${property}: the webhooks section needs it`);
  return values;
}

const SIGNATURE_HEADERS: Schema[] = [
  {
    name: 'X-Service-Signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      '`{"v":"1","s":"<base64 DER>"}`: ECDSA P-256 with SHA-256 over the raw body, verified with ' +
      '`webhookSigningPublicKey` (PEM) from `GET /config`.',
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'Standard Webhooks: the envelope id (the same on every retry).',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'Standard Webhooks: seconds since the epoch of this attempt.',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256>` over `webhook-id.webhook-timestamp.body` with `webhookSecret` ' +
      'from `GET /config`; any Standard Webhooks library verifies it. During the grace period after ' +
      '`POST /config/webhook-secret/rotate` it holds a second space-separated entry made with the replaced secret.',
  },
];

/** The public API's verification webhook types (READY_FOR_VERIFICATION is a status but no webhook). */
const VERIFICATION_WEBHOOK_STATUSES = [
  'APPROVED',
  'REJECTED',
  'RESOLVE_ERRORS',
  'IN_PROGRESS',
  'PENDING_MANUAL_REVIEW',
];

const REFUND: Schema = {
  type: 'object',
  required: ['reference', 'initiatedAt', 'status'],
  properties: {
    reference: { type: 'string' },
    initiatedAt: { type: 'string', format: 'date-time' },
    settledAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['PENDING', 'COMPLETED', 'FAILED'] },
    reason: { type: 'string', enum: ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] },
  },
};

const replyError = (extra: Record<string, Schema>): Schema => ({
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
    ...extra,
  },
});

/** What the platform may answer an incoming-payment webhook (the reply to `INCOMING_PAYMENT.PENDING` decides). */
const APPROVAL_REPLIES: Record<string, Schema> = {
  '200': {
    description: 'Received; for `INCOMING_PAYMENT.PENDING` the payment is approved.',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { receiverCustomerInfo: { type: 'object', additionalProperties: true } },
        },
      },
    },
  },
  '202': { description: 'Received; the payment stays PENDING until approved or rejected through the API.' },
  '403': {
    description: 'The payment is rejected (`INCOMING_PAYMENT.PENDING` only).',
    content: { 'application/json': { schema: replyError({ reason: { type: 'string' } }) } },
  },
  '409': { description: 'Already processed (a duplicate `id`).' },
  '422': {
    description: 'Counterparty information is missing: the payment is rejected (`INCOMING_PAYMENT.PENDING` only).',
    content: {
      'application/json': {
        schema: replyError({ requiredFields: { type: 'array', items: { type: 'string' } } }),
      },
    },
  },
};

/** One webhook family: the envelope with its `type` values and the resource `data` carries. */
function webhook(
  summary: string,
  description: string,
  types: string[],
  data: Schema,
  responses?: Record<string, Schema>,
): Schema {
  return {
    post: {
      summary,
      description:
        `${description} Delivered at least once (deduplicate on \`id\`), retried with backoff for up to 7 days; ` +
        'answer 2xx (or 409) to acknowledge.',
      tags: ['Webhooks'],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [
                ref('WebhookEnvelope'),
                { type: 'object', properties: { type: { type: 'string', enum: types }, data } },
              ],
            },
          },
        },
      },
      responses: responses ?? {
        '200': { description: 'Received (any 2xx, or 409 for a webhook already processed).' },
      },
    },
  };
}

/**
 * The document's `webhooks:` section: what the service POSTs to a platform's endpoint, one entry per family of
 * webhook types, each with its payload schema (the envelope, its `type` values and the resource in `data`) and
 * the two signatures' headers.
 */
// eslint-disable-next-line max-lines-per-function -- 98 lines, to be split
export function webhookDocs(components: Record<string, Schema>): Record<string, Schema> {
  const kyc = statuses(components, 'Customer', 'kycStatus');
  return {
    customer: webhook(
      'Customer KYC or KYB status changed',
      'An individual’s KYC (`CUSTOMER.KYC_<STATUS>`) or a business’s KYB (`CUSTOMER.KYB_<STATUS>`, its own check ' +
        'and its beneficial owners together) changed.',
      [...kyc.map((s) => `CUSTOMER.KYC_${s}`), ...kyc.map((s) => `CUSTOMER.KYB_${s}`)],
      ref('Customer'),
    ),
    'internal-account': webhook(
      'Internal account balance or status updated',
      'A posting changed the balance of an internal account (`INTERNAL_ACCOUNT.BALANCE_UPDATED`), or its status ' +
        'changed (`INTERNAL_ACCOUNT.STATUS_UPDATED`: activated by KYC approval, closed with its deleted customer).',
      ['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INTERNAL_ACCOUNT.STATUS_UPDATED'],
      ref('InternalAccount'),
    ),
    verification: webhook(
      'Verification recorded',
      'A verification of a customer was recorded: `VERIFICATION.<verificationStatus>` with the Verification.',
      VERIFICATION_WEBHOOK_STATUSES.map((s) => `VERIFICATION.${s}`),
      ref('Verification'),
    ),
    'outgoing-payment': webhook(
      'Outgoing payment status',
      'A payment the platform sent (a quote executed, a transfer out) changed status: `PENDING`, `PROCESSING`, ' +
        '`COMPLETED`, `FAILED`, `EXPIRED` follow the status (nothing for CREATED); `REFUND_PENDING` when money ' +
        'starts going back to the source, `REFUND_COMPLETED` when it is back (a payment returned after completion, ' +
        'or ending REJECTED or REFUNDED), `REFUND_FAILED` when payout and refund both failed; these carry `refund`.',
      [...OUTGOING_PAYMENT_WEBHOOK_TYPES],
      { allOf: [ref('Transaction'), { type: 'object', properties: { refund: REFUND } }] },
    ),
    'incoming-payment': webhook(
      'Incoming payment: approval request and status',
      'A payment to one of the platform’s customers changed status: `COMPLETED`, or `FAILED` for every way of not ' +
        'completing (FAILED, REJECTED, REFUNDED, EXPIRED). `INCOMING_PAYMENT.PENDING` asks the platform to approve ' +
        'an UMA payment, with `requestedReceiverCustomerInfoFields` (what the sender’s side wants to know about ' +
        'the receiver and the customer’s registration lacks). The reply decides: 200 approves (give the requested ' +
        'fields in `receiverCustomerInfo`; a mandatory one missing fails the payment with ' +
        '`MISSING_MANDATORY_PAYEE_DATA`), 202 leaves it pending for `POST /transactions/{id}/approve` or ' +
        '`/reject`, 403 rejects it (REJECTED), 422 (`requiredFields`: counterparty information the platform ' +
        'needs and did not get) rejects it as well. Any other reply is a failed delivery, retried until the ' +
        'payment is decided or times out (`PAYMENT_APPROVAL_TIMED_OUT`).',
      [...INCOMING_PAYMENT_WEBHOOK_TYPES],
      {
        allOf: [
          ref('Transaction'),
          {
            type: 'object',
            properties: {
              requestedReceiverCustomerInfoFields: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['name', 'mandatory'],
                  properties: { name: { type: 'string' }, mandatory: { type: 'boolean' } },
                },
              },
            },
          },
        ],
      },
      APPROVAL_REPLIES,
    ),
    invitation: webhook(
      'Invitation claimed',
      'An invitation of one of the platform’s customers was claimed.',
      ['INVITATION_CLAIMED'],
      ref('Invitation'),
    ),
    card: webhook(
      'Card state or funding sources changed',
      'A card moved to another state, or its funding sources changed.',
      ['card.state_change', 'card.funding_source_change'],
      ref('Card'),
    ),
    'agent-action': webhook(
      'Agent action pending approval',
      'An agent’s spend waits for the platform’s approval (`POST /agents/{agentId}/actions/{actionId}/approve` ' +
        'or `/reject`); `data` is the whole AgentAction with its quote or transfer.',
      ['AGENT_ACTION.PENDING_APPROVAL'],
      ref('AgentAction'),
    ),
    'bulk-upload': webhook(
      'Bulk customer import finished',
      'A bulk customer import finished; `data` is the job with its first errors (`errorsTruncated: true` when ' +
        'more were left out).',
      ['BULK_UPLOAD.COMPLETED', 'BULK_UPLOAD.FAILED'],
      ref('BulkCustomerImportJob'),
    ),
    test: webhook(
      'Test webhook',
      'Sent by `POST /sandbox/webhooks/test` to check a receiver; never retried.',
      ['TEST'],
      { type: 'object' },
    ),
  };
}
