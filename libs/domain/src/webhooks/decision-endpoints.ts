import { DomainError } from '../errors.js';

/**
 * A platform's decision endpoints: where the service asks the platform, synchronously and within a deadline, to
 * decide a card authorization or an agent action that needs approval. Kept in the webhook configuration's stream:
 * requests are signed with the webhooks' signing material.
 */
export const DECISION_KINDS = ['CARD_AUTHORIZATION.REQUEST', 'AGENT_ACTION.REQUEST'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** What the platform's default decides when its endpoint gives no usable answer in time. */
export const DEFAULT_DECISIONS: Record<DecisionKind, readonly string[]> = {
  'CARD_AUTHORIZATION.REQUEST': ['APPROVE', 'DECLINE'],
  // WAIT: the action stays PENDING_APPROVAL for a person to decide.
  'AGENT_ACTION.REQUEST': ['APPROVE', 'REJECT', 'WAIT'],
};

/** The answers an endpoint may give, per kind. */
export const ENDPOINT_DECISIONS: Record<DecisionKind, readonly string[]> = {
  'CARD_AUTHORIZATION.REQUEST': ['APPROVE', 'DECLINE'],
  'AGENT_ACTION.REQUEST': ['APPROVE', 'REJECT'],
};

export const MAX_DECISION_DEADLINE_MS = 2000;
export const MIN_DECISION_DEADLINE_MS = 50;

/** Without one given: the longest deadline; a card is declined, an agent action waits for a person. */
export const DECISION_DEFAULTS: Record<DecisionKind, { deadlineMs: number; defaultDecision: string }> = {
  'CARD_AUTHORIZATION.REQUEST': { deadlineMs: MAX_DECISION_DEADLINE_MS, defaultDecision: 'DECLINE' },
  'AGENT_ACTION.REQUEST': { deadlineMs: MAX_DECISION_DEADLINE_MS, defaultDecision: 'WAIT' },
};

export interface DecisionEndpoint {
  type: DecisionKind;
  url: string;
  deadlineMs: number;
  defaultDecision: string;
}

/** One endpoint as given (deadline and default optional). */
export interface DecisionEndpointInput {
  type: string;
  url: string;
  deadlineMs?: number;
  defaultDecision?: string;
}

const fieldError = (field: string, constraint: string, message: string) =>
  new DomainError('invalid', 'INVALID_INPUT', message, { errors: [{ field, constraint, message }] });

/**
 * The endpoints as they will be kept: at most one per kind; each URL passes the webhook endpoint's rules (https, or
 * http on sandbox platforms; public hosts unless allow-listed), the deadline is within 50..2,000 ms and the default
 * one of the kind's.
 */
export function checkDecisionEndpoints(
  inputs: readonly DecisionEndpointInput[],
  /** The webhook endpoint's URL rules (`checkWebhookEndpoint`), reporting on the given field. */
  checkUrl: (url: string, field: string) => string,
): DecisionEndpoint[] {
  const seen = new Set<string>();
  return inputs.map((input, i) => {
    const at = (name: string) => `decisionEndpoints[${i}].${name}`;
    if (!(DECISION_KINDS as readonly string[]).includes(input.type))
      throw fieldError(at('type'), 'isIn', `type must be one of ${DECISION_KINDS.join(', ')}`);
    const type = input.type as DecisionKind;
    if (seen.has(type)) throw fieldError(at('type'), 'isUnique', `only one decision endpoint of type ${type}`);
    seen.add(type);
    const url = checkUrl(input.url, at('url'));
    const deadlineMs = input.deadlineMs ?? DECISION_DEFAULTS[type].deadlineMs;
    if (!Number.isInteger(deadlineMs) || deadlineMs < MIN_DECISION_DEADLINE_MS || deadlineMs > MAX_DECISION_DEADLINE_MS)
      throw fieldError(
        at('deadlineMs'),
        'isInRange',
        `deadlineMs must be an integer from ${MIN_DECISION_DEADLINE_MS} to ${MAX_DECISION_DEADLINE_MS}`,
      );
    const defaultDecision = input.defaultDecision ?? DECISION_DEFAULTS[type].defaultDecision;
    if (!DEFAULT_DECISIONS[type].includes(defaultDecision))
      throw fieldError(
        at('defaultDecision'),
        'isIn',
        `defaultDecision of ${type} must be one of ${DEFAULT_DECISIONS[type].join(', ')}`,
      );
    return { type, url, deadlineMs, defaultDecision };
  });
}

/** A usable answer of a decision endpoint. */
export interface DecisionAnswer {
  decision: string;
  reason?: string;
  approvedAmount?: bigint;
}

const MAX_REASON_LENGTH = 255;

/**
 * The endpoint's answer `{decision, reason?, approvedAmount?}`, or undefined when it is not a usable one: not JSON, a
 * decision that is not one of the kind's, a reason that is not a string, an approvedAmount (a card's approval) that is
 * not a positive integer at most the amount requested.
 */
export function parseDecisionAnswer(
  kind: DecisionKind,
  body: string | undefined,
  requestedAmount?: bigint,
): DecisionAnswer | undefined {
  let answer: unknown;
  try {
    answer = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return undefined;
  const { decision, reason, approvedAmount } = answer as Record<string, unknown>;
  if (typeof decision !== 'string' || !ENDPOINT_DECISIONS[kind].includes(decision)) return undefined;
  if (reason !== undefined && reason !== null && typeof reason !== 'string') return undefined;
  const parsed: DecisionAnswer = {
    decision,
    ...(typeof reason === 'string' && reason !== '' ? { reason: reason.slice(0, MAX_REASON_LENGTH) } : {}),
  };
  // Only a card's approval is partial; elsewhere the field means nothing.
  if (approvedAmount === undefined || approvedAmount === null) return parsed;
  if (kind !== 'CARD_AUTHORIZATION.REQUEST' || decision !== 'APPROVE') return parsed;
  if (typeof approvedAmount !== 'number' || !Number.isSafeInteger(approvedAmount) || approvedAmount <= 0)
    return undefined;
  const amount = BigInt(approvedAmount);
  if (requestedAmount !== undefined && amount > requestedAmount) return undefined;
  return { ...parsed, approvedAmount: amount };
}
