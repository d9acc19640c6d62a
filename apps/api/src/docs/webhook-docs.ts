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
      'from `GET /config`; any Standard Webhooks library verifies it.',
  },
];

/** One webhook family: the envelope with its `type` values and the resource `data` carries. */
function webhook(summary: string, description: string, types: string[], data: Schema): Schema {
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
      responses: {
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
  const payment = statuses(components, 'Transaction', 'status');
  return {
    customer: webhook(
      'Customer KYC or KYB status changed',
      'An individual’s KYC (`CUSTOMER.KYC_<STATUS>`) or a business’s KYB (`CUSTOMER.KYB_<STATUS>`, its own check ' +
        'and its beneficial owners together) changed.',
      [...kyc.map((s) => `CUSTOMER.KYC_${s}`), ...kyc.map((s) => `CUSTOMER.KYB_${s}`)],
      ref('Customer'),
    ),
    'internal-account': webhook(
      'Internal account balance updated',
      'A posting changed the balance of an internal account.',
      ['INTERNAL_ACCOUNT.BALANCE_UPDATED'],
      ref('InternalAccount'),
    ),
    'outgoing-payment': webhook(
      'Outgoing payment status',
      'A payment the platform sent (a quote executed, a transfer out) changed status.',
      payment.map((s) => `OUTGOING_PAYMENT.${s}`),
      ref('Transaction'),
    ),
    'incoming-payment': webhook(
      'Incoming payment status',
      'A payment to one of the platform’s customers (UMA receive, transfer in) changed status; `PENDING` ones ' +
        'wait for `POST /transactions/{id}/approve` or `/reject`.',
      payment.map((s) => `INCOMING_PAYMENT.${s}`),
      ref('Transaction'),
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
