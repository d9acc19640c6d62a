/** OpenAPI prose of the card processor routes (the descriptions the controllers' decorators name). */

export const PROCESSOR_SIGNATURE =
  'Authenticated by an HMAC, not by platform credentials: `X-Processor-Platform: Platform:<uuid>` names the ' +
  'platform and `X-Processor-Signature: t=<unix seconds>,v1=<hex>` carries HMAC-SHA256 with the platform’s card ' +
  'processor secret over `<t>.<raw body>` (several `v1` entries are allowed; one must match). `t` must be within ' +
  '5 minutes of the platform’s clock. A missing, malformed, stale or wrong signature, an unknown platform and one ' +
  'without a secret answer 401 PROCESSOR_SIGNATURE_INVALID and nothing is recorded.';

/** Descriptions of the routes of card-processor.controller.ts, by handler. */
export const CARD_PROCESSOR_TEXT = {
  message:
    'A card processor’s message about one of the platform’s cards (production and sandbox alike), told apart by ' +
    '`type`. AUTHORIZATION is decided as the sandbox simulator decides: the card’s state and currency, then the ' +
    'funding sources in order, the first ACTIVE one with the funds getting a hold; the answer is APPROVED with ' +
    '`approvedAmount` and the `cardTransactionId` it opened, or DECLINED with `declineReason` (CARD_PAUSED, ' +
    'CARD_CLOSED, CARD_NOT_ACTIVE, CURRENCY_MISMATCH, INSUFFICIENT_FUNDS). It is answered within the platform’s ' +
    '`decisionDeadlineMs`: when the service cannot decide in time it answers the platform’s `standInDecision` and ' +
    'records that it did (the authorization’s `decision.decidedBy` is STAND_IN; a stand-in decline’s reason is ' +
    'STAND_IN); the late decision then changes nothing and releases any hold it placed. ADVICE records what the ' +
    'network decided in stand-in (`networkDecision`): APPROVED places the hold whatever the card’s rules (declined ' +
    'INSUFFICIENT_FUNDS only when no funding source can hold it), DECLINED records a decline NETWORK_DECLINED. ' +
    'INCREMENTAL_AUTHORIZATION, CLEARING, REFUND and REVERSAL name the authorization by ' +
    '`originalNetworkTransactionId`. An INCREMENTAL_AUTHORIZATION (a hotel or car rental raising an approved ' +
    'authorization by `amount`) is decided like an authorization of the increment, without the stand-in deadline, ' +
    'and when approved is held as one more hold on the authorization’s funding source (declined ' +
    'INSUFFICIENT_FUNDS when that source lacks the funds, the authorization staying as it was); `approvedAmount` ' +
    'is the increment. The others take the simulators’ ledger paths: a clearing posts the holds oldest first, a ' +
    'refund pays the funding source back, a reversal without an amount releases every hold and one of less ' +
    'releases that much (newest hold first, the rest held again); one the transaction’s state refuses is ' +
    'DECLINED with the error code as `declineReason`. Every message is idempotent by its ' +
    '`networkTransactionId`: a replay gets the first answer and changes nothing. An unknown card, or another ' +
    'platform’s, is DECLINED CARD_NOT_FOUND and nothing is recorded. The authorization records ' +
    '`networkTransactionId`, `entryMode` and `decision` (see GET /audit/cards/{id}/history). ' +
    PROCESSOR_SIGNATURE,
  config:
    'The card processor settings: `decisionDeadlineMs` (default 1500, at most 3000), `standInDecision` (APPROVE ' +
    'or DECLINE, default DECLINE) and whether a secret is set (never the secret itself).',
  update: 'Only the fields given change; answers the settings.',
  rotateSecret:
    'Sets a new card processor secret (`cpsec_…`), replacing the previous one at once, and returns it: the only ' +
    'time it is shown (a replay with the same Idempotency-Key answers without it). Give it to the card ' +
    'processor, which signs its messages with it. Needs MANAGE.',
};
