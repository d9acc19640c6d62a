import { dateTime, obj, type Schema, str, idOf } from './kit.js';

const OUTCOMES = ['DELIVERED', 'RETRYING', 'FAILED', 'DEAD'];

export const webhookSchemas: Record<string, Schema> = {
  WebhookEnvelope: {
    type: 'object',
    required: ['id', 'type', 'timestamp', 'data'],
    description:
      'The body of every webhook. Delivery is at least once: receivers dedupe on `id` (the same on every retry).',
    properties: {
      id: idOf('Webhook'),
      type: {
        $ref: '#/components/schemas/WebhookType',
        description:
          'CUSTOMER.KYC_<STATUS> (individuals), CUSTOMER.KYB_<STATUS> (businesses), ' +
          'INTERNAL_ACCOUNT.BALANCE_UPDATED, INTERNAL_ACCOUNT.STATUS_UPDATED, VERIFICATION.<STATUS>, ' +
          'INVITATION_CLAIMED, ' +
          'OUTGOING_PAYMENT.PENDING|PROCESSING|COMPLETED|FAILED|EXPIRED|REFUND_PENDING|REFUND_COMPLETED|' +
          'REFUND_FAILED, INCOMING_PAYMENT.PENDING|COMPLETED|FAILED, card.state_change, ' +
          'card.funding_source_change, AGENT_ACTION.PENDING_APPROVAL, BULK_UPLOAD.COMPLETED, ' +
          'BULK_UPLOAD.FAILED, BANK_RECONCILIATION.DAY_CLOSED|BREAKS_FOUND, TEST.',
      },
      timestamp: dateTime,
      data: {
        type: 'object',
        description:
          'The resource snapshot (Customer, InternalAccount, Verification, Invitation, Transaction, Card, ' +
          'AgentAction; ' +
          'for BULK_UPLOAD.* the BulkCustomerImportJob with its first errors, `errorsTruncated: true` when ' +
          'more were left out: GET /customers/bulk/jobs/{jobId} lists them all).',
      },
    },
  },
  WebhookDeliveryAttempt: obj(['attempt', 'attemptedAt', 'latencyMs', 'outcome'], {
    attempt: { type: 'integer', minimum: 1, description: 'Within the current run; a redelivery starts at 1 again.' },
    attemptedAt: dateTime,
    url: str({
      format: 'uri',
      description: 'The platform’s endpoint at the time of the attempt; absent when webhooks were turned off.',
    }),
    statusCode: { type: 'integer', description: 'Absent when no response arrived.' },
    latencyMs: { type: 'integer' },
    responseBody: str({ description: 'At most 1 KB of the response body.' }),
    error: str({ description: 'Why no response arrived (refused, timeout, ...).' }),
    outcome: str({ enum: OUTCOMES }),
    nextAttemptAt: dateTime,
    approval: {
      type: 'object',
      required: ['decision'],
      description:
        'An incoming-payment approval request’s reply: APPROVE (2xx, with the `receiverCustomerInfo` given), ' +
        'WAIT (202), REJECT (403 with its `reason`, 422 with its `requiredFields`), FAIL (a mandatory ' +
        'requested receiver field missing: `MISSING_MANDATORY_PAYEE_DATA`).',
      properties: {
        decision: str({ enum: ['APPROVE', 'WAIT', 'REJECT', 'FAIL'] }),
        receiverCustomerInfo: { type: 'object', additionalProperties: true },
        reason: str(),
        requiredFields: { type: 'array', items: str() },
        failureReason: str({ enum: ['MISSING_MANDATORY_PAYEE_DATA'] }),
        missingFields: { type: 'array', items: str() },
      },
    },
  }),
  WebhookDelivery: {
    type: 'object',
    required: [
      'id',
      'webhookId',
      'type',
      'status',
      'url',
      'payload',
      'attemptCount',
      'maxAttempts',
      'redeliveries',
      'attempts',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('WebhookDelivery'),
      webhookId: idOf('Webhook'),
      type: str(),
      status: str({
        enum: ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'],
        description:
          'PENDING: queued or retrying. DELIVERED: a 2xx reply, or 409 (the receiver already had ' +
          'it). FAILED: failed and not retried (TEST, or webhooks turned off meanwhile). DEAD: ' +
          'every attempt failed (exponential backoff, at most 30 minutes apart, for 7 days).',
      }),
      url: str({ format: 'uri' }),
      payload: { $ref: '#/components/schemas/WebhookEnvelope' },
      attemptCount: { type: 'integer', description: 'Attempts of every run.' },
      maxAttempts: { type: 'integer' },
      redeliveries: { type: 'integer' },
      nextAttemptAt: dateTime,
      deliveredAt: dateTime,
      lastStatusCode: { type: 'integer' },
      lastError: str(),
      attempts: {
        type: 'array',
        description: 'The newest 50 attempts, oldest first.',
        items: { $ref: '#/components/schemas/WebhookDeliveryAttempt' },
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  WebhookTestResult: obj(['response_status', 'url', 'response_body'], {
    response_status: { type: 'integer', description: 'The receiver’s HTTP status; 0 when no response arrived.' },
    url: str({ format: 'uri' }),
    response_body: str({ description: 'At most 256 characters of the receiver’s body.' }),
    error: str({
      description:
        'Set when no response arrived: one generic message whether the address was refused, ' +
        'the connection failed or it timed out.',
    }),
  }),
};
