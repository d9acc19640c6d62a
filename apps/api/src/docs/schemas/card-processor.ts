import { dateTime, idOf, obj, str, type Schema } from './kit.js';

const settings: Record<string, Schema> = {
  decisionDeadlineMs: {
    type: 'integer',
    minimum: 1,
    maximum: 3000,
    description: 'How long the service may take to answer an authorization (default 1500).',
  },
  standInDecision: str({ enum: ['APPROVE', 'DECLINE'], description: 'The answer when it cannot decide in time.' }),
  secretSet: { type: 'boolean' },
  secretSetAt: { ...dateTime, type: ['string', 'null'] },
};

/** Response schemas of the card processor routes. */
export const cardProcessorSchemas: Record<string, Schema> = {
  CardProcessorAnswer: obj(['decision', 'approvedAmount', 'authorizationId'], {
    decision: str({ enum: ['APPROVED', 'DECLINED'] }),
    approvedAmount: { type: 'integer', minimum: 0, description: 'In the smallest unit; 0 when declined.' },
    declineReason: str({
      description:
        'CARD_NOT_FOUND, CARD_PAUSED, CARD_CLOSED, CARD_NOT_ACTIVE, CURRENCY_MISMATCH, INSUFFICIENT_FUNDS, ' +
        'STAND_IN, NETWORK_DECLINED, or the error code a follow-up message met.',
    }),
    authorizationId: idOf('CardAuthorization'),
    cardTransactionId: idOf('CardTransaction'),
  }),
  CardProcessorConfig: obj(['decisionDeadlineMs', 'standInDecision', 'secretSet', 'secretSetAt'], settings),
  CardProcessorSecret: obj(['decisionDeadlineMs', 'standInDecision', 'secretSet', 'secretSetAt'], {
    cardProcessorSecret: str({
      pattern: '^cpsec_',
      description: 'The new secret; absent when the answer is a replay (Idempotency-Key).',
    }),
    ...settings,
  }),
};
