import { WEBHOOK_FAMILIES, type WebhookFamilyText } from './descriptions/webhooks.js';
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
  { summary, description }: WebhookFamilyText,
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
export function webhookDocs(components: Record<string, Schema>): Record<string, Schema> {
  const kyc = statuses(components, 'Customer', 'kycStatus');
  return {
    customer: webhook(
      WEBHOOK_FAMILIES.customer,
      [...kyc.map((s) => `CUSTOMER.KYC_${s}`), ...kyc.map((s) => `CUSTOMER.KYB_${s}`)],
      ref('Customer'),
    ),
    'internal-account': webhook(
      WEBHOOK_FAMILIES['internal-account'],
      ['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INTERNAL_ACCOUNT.STATUS_UPDATED'],
      ref('InternalAccount'),
    ),
    verification: webhook(
      WEBHOOK_FAMILIES.verification,
      VERIFICATION_WEBHOOK_STATUSES.map((s) => `VERIFICATION.${s}`),
      ref('Verification'),
    ),
    'outgoing-payment': webhook(WEBHOOK_FAMILIES['outgoing-payment'], [...OUTGOING_PAYMENT_WEBHOOK_TYPES], {
      allOf: [ref('Transaction'), { type: 'object', properties: { refund: REFUND } }],
    }),
    'incoming-payment': webhook(
      WEBHOOK_FAMILIES['incoming-payment'],
      [...INCOMING_PAYMENT_WEBHOOK_TYPES],
      {
        allOf: [
          ref('Transaction'),
          {
            type: 'object',
            properties: {
              requestedReceiverCustomerInfoFields: {
                type: 'array',
                items: ref('CounterpartyFieldDefinition'),
                description:
                  'What the sender’s side asks about the receiving customer that its registration lacks: the ' +
                  'platform gives them in `receiverCustomerInfo` when it approves `INCOMING_PAYMENT.PENDING`.',
              },
            },
          },
        ],
      },
      APPROVAL_REPLIES,
    ),
    invitation: webhook(WEBHOOK_FAMILIES.invitation, ['INVITATION_CLAIMED'], ref('Invitation')),
    card: webhook(WEBHOOK_FAMILIES.card, ['card.state_change', 'card.funding_source_change'], ref('Card')),
    'agent-action': webhook(WEBHOOK_FAMILIES['agent-action'], ['AGENT_ACTION.PENDING_APPROVAL'], ref('AgentAction')),
    'bulk-upload': webhook(
      WEBHOOK_FAMILIES['bulk-upload'],
      ['BULK_UPLOAD.COMPLETED', 'BULK_UPLOAD.FAILED'],
      ref('BulkCustomerImportJob'),
    ),
    'bank-reconciliation': webhook(
      WEBHOOK_FAMILIES['bank-reconciliation'],
      ['BANK_RECONCILIATION.DAY_CLOSED', 'BANK_RECONCILIATION.BREAKS_FOUND'],
      {
        allOf: [
          ref('BankReconciliation'),
          { type: 'object', required: ['currency'], properties: { currency: { type: 'string' } } },
        ],
      },
    ),
    test: webhook(WEBHOOK_FAMILIES.test, ['TEST'], { type: 'object' }),
  };
}

/**
 * The public API's WebhookType: every `type` value a webhook envelope carries (OUTGOING_PAYMENT.*, INCOMING_PAYMENT.*,
 * CUSTOMER.*, ...), gathered from the families of the `webhooks:` section.
 */
export function webhookTypeSchema(webhooks: Record<string, Schema>): Schema {
  const types = Object.values(webhooks).flatMap((hook) => {
    const body = (hook.post as Schema).requestBody as { content: Record<string, { schema: { allOf: Schema[] } }> };
    const typed = body.content['application/json'].schema.allOf[1] as { properties: { type: { enum: string[] } } };
    return typed.properties.type.enum;
  });
  return { type: 'string', enum: types, description: 'The type of a webhook: its family and event, OBJECT.EVENT.' };
}
