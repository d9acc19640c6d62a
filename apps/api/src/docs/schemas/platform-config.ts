import { COUNTERPARTY_FIELD_NAMES, TRANSACTION_TYPES } from '#domain/platforms/platform-config.js';
import { PERMISSIONS } from '#domain/platforms/permissions.js';
import { BANK_RAIL_TYPES } from '#domain/payments/rails/bank-rails.js';
import {
  DECISION_KINDS,
  MAX_DECISION_DEADLINE_MS,
  MIN_DECISION_DEADLINE_MS,
} from '#domain/webhooks/decision-endpoints.js';
import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';

const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });

/** The platform's configuration (GET/PATCH /config) and its API tokens. */
export const platformConfigSchemas: Record<string, Schema> = {
  PlatformCurrencyConfig: obj(
    ['currencyCode', 'minAmount', 'maxAmount', 'requiredCounterpartyFields', 'enabledTransactionTypes'],
    {
      currencyCode: str(),
      minAmount: int({ minimum: 0, description: 'Smallest unit of the currency.' }),
      maxAmount: int({ minimum: 0, description: 'Smallest unit of the currency.' }),
      requiredCounterpartyFields: { type: 'array', items: ref('CounterpartyFieldDefinition') },
      providerRequiredCustomerFields: {
        type: 'array',
        items: ref('CustomerInfoFieldName'),
        readOnly: true,
        description:
          'What a quote paying in this currency must tell about the paying customer (the receiver’s ' +
          'requiredPayerDataFields, in senderCustomerInfo). Absent when nothing is required.',
      },
      providerRequiredCounterpartyCustomerFields: {
        type: 'array',
        items: ref('CustomerInfoFieldName'),
        readOnly: true,
        description:
          'What the counterparty tells about its customer in this currency (a lookup’s counterpartyInformation).',
      },
      enabledTransactionTypes: { type: 'array', items: str({ enum: [...TRANSACTION_TYPES] }) },
    },
  ),
  CustomerInfoFieldName: str({
    enum: [...COUNTERPARTY_FIELD_NAMES],
    description: 'A field of information about a platform’s customer or a counterparty’s customer.',
  }),
  CounterpartyFieldDefinition: obj(['name', 'mandatory'], {
    name: ref('CustomerInfoFieldName'),
    mandatory: { type: 'boolean', description: 'Whether the field is mandatory.' },
  }),
  EmbeddedWalletConfig: {
    type: 'object',
    properties: {
      appName: str({ maxLength: 255 }),
      otpLength: int({ minimum: 4, maximum: 12 }),
      alphanumeric: { type: 'boolean' },
      expirationSeconds: int({ minimum: 1, maximum: 86400 }),
      sendFromEmailAddress: str({ format: 'email', maxLength: 255 }),
      sendFromEmailSenderName: str({ maxLength: 255 }),
      replyToEmailAddress: str({ format: 'email', maxLength: 255 }),
      logoUrl: str({ format: 'uri', maxLength: 512 }),
    },
  },
  PlatformConfig: {
    type: 'object',
    required: [
      'id',
      'umaDomain',
      'proxyUmaSubdomain',
      'supportedCurrencies',
      'isRegulatedFinancialInstitution',
      'webhookSigningPublicKey',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('Platform'),
      umaDomain: str({ description: 'The domain new customers’ UMA addresses are generated in.' }),
      proxyUmaSubdomain: str({ description: 'The subdomain incoming UMA requests for the platform are proxied to.' }),
      supportedCurrencies: { type: 'array', items: { $ref: '#/components/schemas/PlatformCurrencyConfig' } },
      isRegulatedFinancialInstitution: {
        type: 'boolean',
        description: 'Set by the service’s operators when the platform is created; read-only.',
      },
      embeddedWalletConfig: {
        $ref: '#/components/schemas/EmbeddedWalletConfig',
        description: 'Present once the platform has set it.',
      },
      cardSpendingControls: {
        $ref: '#/components/schemas/SpendingControls',
        description: 'The spending controls of the platform’s cards that have none of their own; absent while none.',
      },
      rails: {
        type: 'array',
        items: { $ref: '#/components/schemas/BankRail' },
        description: 'Production platforms’ bank rails, one per currency; absent while none is set.',
      },
      webhookEndpoint: str({ format: 'uri', description: 'Where webhooks are POSTed; absent while webhooks are off.' }),
      webhookSigningPublicKey: nullable(
        str({
          description:
            'P-256 public key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`). Verify ' +
            '`X-Service-Signature` `{"v":"1","s":"<base64 DER>"}`: ECDSA with SHA-256 over the ' +
            'raw body bytes. Null until the first configuration.',
        }),
      ),
      webhookSecret: nullable(
        str({
          pattern: '^whsec_',
          description:
            'Standard Webhooks secret for `webhook-signature` (HMAC-SHA256 over ' +
            '`webhook-id.webhook-timestamp.body`). Null until the first configuration; absent for a token ' +
            'without the MANAGE permission.',
        }),
      ),
      decisionEndpoints: {
        type: 'array',
        items: { $ref: '#/components/schemas/DecisionEndpoint' },
        description: 'Where the platform decides card authorizations and agent actions; [] while none is registered.',
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  DecisionEndpoint: obj(['type', 'url', 'deadlineMs', 'defaultDecision'], {
    type: str({ enum: [...DECISION_KINDS], description: 'What the endpoint decides; at most one endpoint per type.' }),
    url: str({
      format: 'uri',
      description: 'https (http on sandbox platforms), on a public host unless allow-listed: as webhookEndpoint.',
    }),
    deadlineMs: int({
      minimum: MIN_DECISION_DEADLINE_MS,
      maximum: MAX_DECISION_DEADLINE_MS,
      description: 'How long the request waits for the answer, from its arrival; 2000 unless set.',
    }),
    defaultDecision: str({
      enum: ['APPROVE', 'DECLINE', 'REJECT', 'WAIT'],
      description:
        'What decides when the endpoint gives no usable answer in time. CARD_AUTHORIZATION.REQUEST: APPROVE or ' +
        'DECLINE (the default); AGENT_ACTION.REQUEST: APPROVE, REJECT or WAIT (the default: the action stays ' +
        'PENDING_APPROVAL).',
    }),
  }),
  PlatformDecisionRecord: obj(['decidedBy', 'elapsedMs'], {
    decidedBy: str({
      enum: ['RULES', 'PLATFORM', 'DEFAULT', 'STAND_IN'],
      description:
        'RULES: the service’s own rules alone (no endpoint registered, or the card’s state, spending controls or ' +
        'funds declined first); PLATFORM: the platform’s decision endpoint; DEFAULT: the endpoint’s default, ' +
        'when it gave no usable answer in time; STAND_IN: the service’s stand-in decision.',
    }),
    elapsedMs: int({ minimum: 0, description: 'From the request’s arrival to the decision (monotonic clock).' }),
    reason: str({ description: 'The platform’s reason, when it gave one.' }),
    fallback: str({
      enum: ['TIMEOUT', 'CONNECTION_ERROR', 'BAD_STATUS', 'MALFORMED_ANSWER'],
      description: 'DEFAULT only: why the endpoint’s answer was not used.',
    }),
  }),
  BankRail: obj(['currency', 'type', 'account', 'outboxFolder', 'inboxFolder'], {
    currency: str({ description: 'The currency the rail pays out and pulls in.' }),
    type: str({
      enum: [...BANK_RAIL_TYPES],
      description: 'ISO20022_FILES: pain.001/pain.008 out, pain.002/camt.054/camt.053 in.',
    }),
    account: obj(['name'], {
      name: str({ maxLength: 70, description: 'The account holder (the debtor of payouts).' }),
      bankName: str({ maxLength: 70, description: 'The bank, as customers paying in are told it.' }),
      iban: str({ description: 'With bic; or accountNumber and routingNumber.' }),
      bic: str(),
      accountNumber: str(),
      routingNumber: str({ description: 'ABA routing number.' }),
    }),
    creditorSchemeId: str({ description: 'The creditor identifier direct debits are collected under.' }),
    outboxFolder: str({ description: 'Where the service writes initiation files for the bank to collect.' }),
    inboxFolder: str({ description: 'Where the bank’s status reports, notifications and statements are dropped.' }),
  }),
  ApiToken: obj(['id', 'name', 'permissions', 'clientId', 'status', 'createdAt', 'updatedAt'], {
    id: idOf('ApiToken'),
    name: str(),
    permissions: {
      type: 'array',
      items: str({ enum: [...PERMISSIONS] }),
      description:
        'VIEW: every GET. TRANSACT: payments (quotes, transfers, payment approvals, sandbox money). MANAGE: ' +
        'everything else that changes something (configuration, tokens, customers, accounts, cards). ' +
        'Wallet authentication (/auth/...) takes TRANSACT or MANAGE. Missing: 403 FORBIDDEN.',
    },
    clientId: str({ description: 'The username of HTTP Basic authentication (the token id).' }),
    status: str({ enum: ['ACTIVE', 'REVOKED'] }),
    revokedAt: dateTime,
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  WebhookSecretRotation: obj(['previousSecretValidUntil'], {
    webhookSecret: str({
      pattern: '^whsec_',
      description: 'The new Standard Webhooks secret; absent when the answer is a replay (Idempotency-Key).',
    }),
    previousSecretValidUntil: {
      ...dateTime,
      description: 'Until then (platform clock) deliveries are also signed with the replaced secret.',
    },
  }),
};
