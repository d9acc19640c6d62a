import type { AuthorizationDecision } from '#domain/cards/card-decision.js';
import type { CardSnapshot, DeclineReason, Merchant } from '#domain/cards/card-types.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import type { PlatformDecision, PlatformDecisions } from '../decisions/platform-decisions.js';

/** What the platform's decision endpoint (or its default) made of an authorization request. */
export interface CardPlatformAnswer {
  /** What the platform approved (a partial approval: less than asked), or undefined when it declined. */
  amount: bigint;
  declineReason?: Extract<DeclineReason, 'PLATFORM_DECLINED'>;
  decision: PlatformDecision;
}

export interface CardDecisionRequest {
  platformId: string;
  card: CardSnapshot;
  authorizationId: string;
  input: { amount: bigint; currency: string; merchant: Merchant };
  /** When the network's request arrived, on the decisions' monotonic clock. */
  startedAt: number;
}

/**
 * Asks the platform's CARD_AUTHORIZATION.REQUEST endpoint about an authorization that passed the card's own
 * screening; undefined when the platform registered none (the rules alone decide).
 */
export async function askPlatformAboutCard(
  decisions: PlatformDecisions,
  ids: IdGenerator,
  { platformId, card, authorizationId, input, startedAt }: CardDecisionRequest,
): Promise<CardPlatformAnswer | undefined> {
  const data = {
    id: authorizationId,
    cardId: card.id,
    customerId: card.customerId,
    platformCardId: card.platformCardId,
    amount: Number(input.amount),
    currency: input.currency,
    merchant: input.merchant,
  };
  const decision = await decisions.decide(platformId, 'CARD_AUTHORIZATION.REQUEST', {
    requestId: publicId('Webhook', ids.uuid()),
    data,
    requestedAmount: input.amount,
    startedAt,
  });
  if (!decision) return undefined;
  if (!decision.approved) return { amount: input.amount, declineReason: 'PLATFORM_DECLINED', decision };
  return { amount: decision.approvedAmount ?? input.amount, decision };
}

/**
 * What the authorization records about its decision: the platform's (or its default's) when it decided the outcome,
 * the rules' otherwise (no endpoint, the card's screening declined first, or no funding source could hold it).
 */
export function recordedDecision(
  answer: CardPlatformAnswer | undefined,
  declineReason: DeclineReason | undefined,
  sinceArrivalMs: number,
): AuthorizationDecision {
  const declinedByRules = declineReason !== undefined && declineReason !== 'PLATFORM_DECLINED';
  if (!answer || declinedByRules) return { decidedBy: 'RULES', elapsedMs: Math.round(sinceArrivalMs) };
  const { decidedBy, elapsedMs, reason, fallback } = answer.decision;
  return {
    decidedBy,
    elapsedMs,
    ...(reason !== undefined ? { reason } : {}),
    ...(fallback !== undefined ? { fallback } : {}),
  };
}
