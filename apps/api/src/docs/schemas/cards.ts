import { MAX_SPENDING_LIMIT, MAX_SPENDING_LIST, SPENDING_DECLINE_REASONS } from '#domain/cards/card-spending.js';
import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
const int = (description: string): Schema => ({ type: 'integer', description });
const limit = (description: string): Schema => ({
  type: ['integer', 'null'],
  minimum: 1,
  maximum: MAX_SPENDING_LIMIT,
  description,
});
const codes = (pattern: string, description: string): Schema => ({
  type: ['array', 'null'],
  items: str({ pattern }),
  minItems: 1,
  maxItems: MAX_SPENDING_LIST,
  description,
});

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
      spendingControls: {
        ...ref('SpendingControls'),
        description:
          'The card’s own spending controls; absent while it has none (the platform’s cardSpendingControls apply).',
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  SpendingControls: {
    type: 'object',
    description:
      'Spending controls (as Stripe Issuing’s spending_controls): checked on every authorization after the card’s ' +
      'state and currency and before the funding sources, each with its own decline code. Amounts in the smallest ' +
      'unit of the card’s currency. Daily and monthly limits count the amounts of the card’s approved ' +
      'authorizations in the UTC day and month of the platform’s clock (a reversal or an expiry does not give the ' +
      'amount back). A field absent or null sets no rule.',
    properties: {
      perAuthorizationLimit: limit('The most one authorization may ask (SPENDING_LIMIT_PER_AUTHORIZATION).'),
      dailyLimit: limit('The most approved authorizations may add up to in a UTC day (SPENDING_LIMIT_DAILY).'),
      monthlyLimit: limit('The same in a UTC month (SPENDING_LIMIT_MONTHLY).'),
      allowedMerchantCategories: codes(
        '^[0-9]{4}$',
        'Only these MCCs are approved (MERCHANT_CATEGORY_NOT_ALLOWED); not with blockedMerchantCategories.',
      ),
      blockedMerchantCategories: codes(
        '^[0-9]{4}$',
        'These MCCs are declined (MERCHANT_CATEGORY_BLOCKED); not with allowedMerchantCategories.',
      ),
      allowedMerchantCountries: codes(
        '^[A-Z]{2}$',
        'ISO 3166-1 alpha-2: only merchants in these countries are approved (MERCHANT_COUNTRY_NOT_ALLOWED).',
      ),
    },
  },
  CardDeclineReason: str({
    enum: [
      'CARD_PAUSED',
      'CARD_CLOSED',
      'CARD_NOT_ACTIVE',
      'CURRENCY_MISMATCH',
      ...SPENDING_DECLINE_REASONS,
      'INSUFFICIENT_FUNDS',
    ],
    description:
      'Why an authorization was declined, in the order they are checked: the card’s state and currency, the ' +
      'spending controls (merchant category, merchant country, per-authorization, daily, monthly), the funds.',
  }),
  CardBacktestDecision: obj(['outcome', 'declineReason'], {
    outcome: str({ enum: ['APPROVED', 'DECLINED'] }),
    declineReason: nullable(ref('CardDeclineReason')),
  }),
  CardBacktestTally: obj(['count', 'amount'], {
    count: int('Authorizations.'),
    amount: nullable(int('Their amounts added up (smallest unit); null past 2^53-1, with `exact`.')),
    exact: str({ description: 'The exact sum as a decimal string, when `amount` is null.' }),
  }),
  CardBacktestChange: obj(['authorizationId', 'at', 'amount', 'currency', 'merchant', 'actual', 'draft'], {
    authorizationId: idOf('CardAuthorization'),
    at: dateTime,
    amount: int('Smallest unit of the card’s currency.'),
    currency: str(),
    merchant: ref('CardMerchant'),
    actual: ref('CardBacktestDecision'),
    draft: ref('CardBacktestDecision'),
    fundsAssumed: {
      type: 'boolean',
      description: 'Declined by the controls in force, approved by the draft: the funds were never tried.',
    },
  }),
  CardSpendingControlsBacktest: {
    type: 'object',
    description: 'What a draft of spending controls would have decided differently over a period of the card.',
    required: [
      'cardId',
      'currency',
      'from',
      'to',
      'spendingControls',
      'authorizations',
      'actualApproved',
      'draftApproved',
      'changed',
      'transitions',
      'changes',
      'changesTruncated',
    ],
    properties: {
      cardId: idOf('Card'),
      currency: str(),
      from: dateTime,
      to: dateTime,
      spendingControls: nullable(ref('SpendingControls')),
      authorizations: int('Authorizations recorded in the period.'),
      actualApproved: ref('CardBacktestTally'),
      draftApproved: ref('CardBacktestTally'),
      changed: ref('CardBacktestTally'),
      transitions: {
        type: 'array',
        description: 'Per pair of decisions (actual, draft) that differ: how many and their amounts.',
        items: {
          allOf: [
            obj(['actual', 'draft'], { actual: ref('CardBacktestDecision'), draft: ref('CardBacktestDecision') }),
            ref('CardBacktestTally'),
          ],
        },
      },
      changes: { type: 'array', items: ref('CardBacktestChange'), description: 'In the order they were recorded.' },
      changesTruncated: { type: 'boolean', description: 'More than 10,000 changed: the first 10,000 are listed.' },
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
