import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
const int = (description: string): Schema => ({ type: 'integer', description });

export const cardSchemas: Record<string, Schema> = {
  Card: {
    type: 'object',
    description:
      'A card. The spec’s form factor is the field `form`. Owning internal account (whose sessions ' +
      'sign PATCH): the holder’s EMBEDDED_WALLET account in the card currency, recorded at creation.',
    required: [
      'id',
      'customerId',
      'state',
      'stateReason',
      'form',
      'fundingSources',
      'platformCardId',
      'brand',
      'currency',
      'issuerRef',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('Card'),
      customerId: str({ description: 'The holder.' }),
      state: str({ enum: ['PENDING_KYC', 'PENDING_ISSUE', 'ACTIVE', 'FROZEN', 'CLOSED'] }),
      stateReason: nullable(
        str({
          enum: ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE'],
          description: 'Set when closed or when provisioning was rejected (then the state is CLOSED).',
        }),
      ),
      form: str({ enum: ['VIRTUAL'] }),
      fundingSources: {
        type: 'array',
        items: str(),
        description: 'Internal account ids in priority order; empty once the card is closed (bindings detached).',
      },
      platformCardId: str({ description: 'Given on create or generated.' }),
      brand: str({ enum: ['VISA', 'MASTERCARD'] }),
      last4: str({ pattern: '^[0-9]{4}$', description: 'Absent until issued.' }),
      expMonth: { type: 'integer', minimum: 1, maximum: 12, description: 'Absent until issued.' },
      expYear: { type: 'integer', description: 'Four digits; absent until issued.' },
      panEmbedUrl: str({
        format: 'uri',
        description: 'Issuer iframe URL with an opaque token showing PAN, CVV and expiry; absent until issued.',
      }),
      currency: str({ description: 'Derived from the funding sources.' }),
      issuerRef: str({ description: 'Opaque issuer card id.' }),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  CardMerchant: obj(['descriptor'], {
    descriptor: str({ description: 'As the card network presented it.' }),
    mcc: str({ description: 'Merchant category code (ISO 18245), four digits.' }),
    country: str({ description: 'ISO 3166-1 alpha-2.' }),
  }),
  CurrencyAmount: obj(['amount', 'currency'], {
    amount: int('Smallest unit of the currency.'),
    currency: ref('Currency'),
  }),
  CardPullSummary: obj(['count', 'totalAmount', 'pendingCount'], {
    count: int(
      'Debits of the funding source for this transaction: the authorization’s hold, plus one per post-hoc pull.',
    ),
    totalAmount: int('What those debits amount to (a hold cut to what posted, or to 0 when released).'),
    pendingCount: int('Pulls not yet final (always 0: every pull here is final when the call answers).'),
  }),
  CardRefundSummary: obj(['count', 'totalAmount'], {
    count: int('Returns received.'),
    totalAmount: int('Sum of the returns.'),
  }),
  CardSettlementSummary: obj(['count', 'totalAmount'], {
    count: int('Clearings posted.'),
    totalAmount: int('Sum of the clearings posted.'),
  }),
  CardTransaction: {
    type: 'object',
    description:
      'An approved card authorization and every pull, clearing and return reconciled against it. Amounts are ' +
      'in the card’s currency.',
    required: [
      'id',
      'cardId',
      'customerId',
      'issuerTransactionToken',
      'status',
      'merchant',
      'authorizedAmount',
      'settledAmount',
      'refundedAmount',
      'accountId',
      'pullSummary',
      'refundSummary',
      'settlementSummary',
      'authorizedAt',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('CardTransaction'),
      cardId: str(),
      customerId: str({ description: 'The cardholder.' }),
      issuerTransactionToken: str({ description: 'Opaque id of the transaction at the issuer.' }),
      status: str({ enum: ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] }),
      merchant: ref('CardMerchant'),
      authorizedAmount: ref('CurrencyAmount'),
      settledAmount: ref('CurrencyAmount'),
      refundedAmount: ref('CurrencyAmount'),
      accountId: str({ description: 'The funding source (internal account) that approved and pays it.' }),
      pullSummary: ref('CardPullSummary'),
      refundSummary: ref('CardRefundSummary'),
      settlementSummary: ref('CardSettlementSummary'),
      authorizedAt: dateTime,
      lastEventAt: str({ format: 'date-time', description: 'The latest clearing, return or release; absent before.' }),
      decision: {
        $ref: '#/components/schemas/PlatformDecisionRecord',
        description: 'Who approved the authorization and how long it took.',
      },
      createdAt: str({ format: 'date-time', description: 'Equals authorizedAt.' }),
      updatedAt: dateTime,
    },
  },
};
