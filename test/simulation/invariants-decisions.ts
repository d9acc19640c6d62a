import { agentStream } from '#domain/agents/agent.js';
import type { AgentActionSnapshot } from '#domain/agents/agent-types.js';
import type { AuthorizationDecision } from '#domain/cards/card-decision.js';
import type { CardAuthorizationRecord } from '#domain/cards/card-types.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import type { DecisionAsked, EndpointAnswer, SimDecisionEndpoint, SimDecisionEndpoints } from './decisions.js';
import { InvariantViolation, foldLedger } from './invariants.js';
import type { World } from './world.js';

const fail = (invariant: string, detail: string, ...streamNames: string[]): never => {
  throw new InvariantViolation(invariant, detail, streamNames);
};

/** The fallback the client records for an answer that is no usable decision (TIMEOUT may always come first). */
const FALLBACK_OF: Partial<Record<EndpointAnswer, string>> = {
  LATE: 'TIMEOUT',
  BAD_STATUS: 'BAD_STATUS',
  MALFORMED: 'MALFORMED_ANSWER',
  UNREACHABLE: 'CONNECTION_ERROR',
};

/**
 * Card authorizations and agent actions keep to their platforms' decision endpoints (see checkAgentDecisions).
 * Authorizations keep to what the platform's decision endpoint answered. On a platform without an endpoint none is
 * decided by a platform or its default. Otherwise: a PLATFORM decision is one the endpoint gave in time (APPROVE
 * approves the amount asked, a partial approval exactly its amount, DECLINE declines PLATFORM_DECLINED); a DEFAULT one
 * has the platform's default outcome and the fallback of what the endpoint answered (a late answer always falls back
 * to TIMEOUT, and a TIMEOUT is only recorded once the deadline has passed on the virtual clock); a RULES one, for an
 * authorization the endpoint was asked about, is a decline for want of funds. An approval, PLATFORM or DEFAULT, may be
 * declined when it is recorded, by the card's rules as they are then. No declined authorization moves money (a hold
 * placed before another outcome was recorded first is released).
 */
export function checkDecisions(log: MemoryLog, world: World, endpoints: SimDecisionEndpoints): void {
  checkAgentDecisions(log, world, endpoints);
  for (const card of world.cards) {
    const stream = streams.card(card.id);
    const endpoint = endpoints.endpointOf(card.platformId, 'CARD_AUTHORIZATION.REQUEST');
    const ledger = streams.ledger(card.platformId);
    let transfers: ReturnType<typeof foldLedger>['transfers'] | undefined;
    let voids: Set<string> | undefined;
    for (const e of log.streams.get(stream) ?? []) {
      if (e.type !== 'CardAuthorizationRecorded') continue;
      const authorization = (e.data as { authorization: CardAuthorizationRecord }).authorization;
      const asked = endpoints.asked.get(authorization.id) ?? [];
      const problem = decisionProblem(authorization, endpoint, asked);
      if (problem)
        fail('decisions: an authorization keeps to its platform endpoint', `${authorization.id}: ${problem}`, stream);
      if (authorization.status !== 'DECLINED') continue;
      transfers ??= foldLedger(log.streams.get(ledger) ?? []).transfers;
      // The records that void a hold (they name it, and move nothing).
      voids ??= new Set(
        (log.streams.get(ledger) ?? []).filter((v) => v.type === 'PendingTransferVoided').map((v) => String(v.data.id)),
      );
      // A hold placed before another outcome was recorded is released (checkCardHoldsReleased: by the end); none posts.
      for (const transfer of transfers.values())
        if (
          transfer.reference === authorization.id &&
          !voids.has(transfer.id) &&
          (!transfer.pending || transfer.resolution === 'POSTED')
        )
          fail(
            'decisions: a declined authorization moves no money',
            `${transfer.id} for ${authorization.id}`,
            stream,
            ledger,
          );
    }
  }
}

/**
 * Agent actions keep to what the platform's AGENT_ACTION.REQUEST endpoint answered. On a platform without one no action
 * records a decision. Otherwise a decision recorded is the endpoint's in-time APPROVE (the action then reserved, or
 * failed on its policy decided again) or REJECT (with its reason), or the default's, APPROVE or REJECT, with the
 * fallback of what the endpoint answered (a TIMEOUT only once the deadline passed); WAIT records nothing. A rejected
 * action reserves nothing and moves no money.
 */
function checkAgentDecisions(log: MemoryLog, world: World, endpoints: SimDecisionEndpoints): void {
  for (const agent of world.agents) {
    const stream = agentStream(agent.id);
    const endpoint = endpoints.endpointOf(agent.platformId, 'AGENT_ACTION.REQUEST');
    const rejected = new Set<string>();
    // The decision is checked on the event that records it (later events of the action carry it on).
    const decided = new Set<string>();
    for (const e of log.streams.get(stream) ?? []) {
      const action = (e.data as { action?: AgentActionSnapshot }).action;
      if (!action) continue;
      if (rejected.has(action.id))
        fail('decisions: a rejected agent action stays rejected', `${e.type} for ${action.id}`, stream);
      if (e.type === 'AgentActionRejected') rejected.add(action.id);
      if (!action.decision || decided.has(action.id)) continue;
      decided.add(action.id);
      const problem = actionProblem(e.type, action, endpoint, endpoints.asked.get(action.id) ?? []);
      if (problem)
        fail('decisions: an agent action keeps to its platform endpoint', `${action.id}: ${problem}`, stream);
    }
    if (rejected.size === 0) continue;
    const ledger = streams.ledger(agent.platformId);
    // An agent's transfer is the transaction its action fixes (agent-actions.ts): none is started for a rejected one.
    const transactionOf = (actionId: string) => publicId('Transaction', uuidOf('AgentAction', actionId)!);
    for (const actionId of rejected)
      if (log.streams.has(streams.transaction(transactionOf(actionId))))
        fail('decisions: a rejected agent action moves no money', `${transactionOf(actionId)} for ${actionId}`, stream);
    const references = new Set([...rejected].flatMap((id) => [id, transactionOf(id)]));
    for (const e of log.streams.get(ledger) ?? [])
      if (e.type === 'TransferCreated' && references.has(String(e.data.reference)))
        fail('decisions: a rejected agent action moves no money', `${String(e.data.reference)}`, stream, ledger);
  }
}

/** What is wrong with a decision an agent action's event records, given the endpoint and what it answered. */
function actionProblem(
  type: string,
  action: AgentActionSnapshot,
  endpoint: SimDecisionEndpoint | undefined,
  asked: readonly DecisionAsked[],
): string | undefined {
  const decision = action.decision!;
  const { decidedBy, reason } = decision;
  if (!endpoint) return `decided by ${decidedBy} with no endpoint`;
  const approvedAs = type === 'AgentSpendReserved' || type === 'AgentActionFailed';
  const answers = asked.map((a) => a.answer).join(',');
  if (decidedBy === 'PLATFORM') {
    const kept = asked.some(
      (a) =>
        (a.answer === 'APPROVE' && approvedAs) ||
        (a.answer === 'REJECT' && type === 'AgentActionRejected' && reason === 'simulated reject'),
    );
    return kept ? undefined : `${type} by PLATFORM, the endpoint answered ${answers}`;
  }
  const defaultKept =
    endpoint.defaultDecision === 'APPROVE'
      ? approvedAs
      : endpoint.defaultDecision === 'REJECT' && type === 'AgentActionRejected';
  if (!defaultKept) return `${type} by DEFAULT, the default is ${endpoint.defaultDecision}`;
  return fallbackProblem(endpoint, asked, decision);
}

/** What is wrong with a default decision's fallback, given the endpoint and what it answered; else undefined. */
function fallbackProblem(
  endpoint: SimDecisionEndpoint,
  asked: readonly DecisionAsked[],
  { fallback, elapsedMs }: { fallback?: string; elapsedMs: number },
): string | undefined {
  if (fallback === 'TIMEOUT')
    return elapsedMs >= endpoint.deadlineMs
      ? undefined
      : `TIMEOUT after ${elapsedMs} ms, the deadline is ${endpoint.deadlineMs} ms`;
  const answers = asked.map((a) => a.answer).join(',');
  return asked.some((a) => FALLBACK_OF[a.answer] === fallback)
    ? undefined
    : `fallback ${fallback}, the endpoint answered ${answers}`;
}

/** What is wrong with an authorization's recorded decision, given the endpoint and what it answered; else undefined. */
function decisionProblem(
  authorization: CardAuthorizationRecord,
  endpoint: SimDecisionEndpoint | undefined,
  asked: readonly DecisionAsked[],
): string | undefined {
  const decision = authorization.decision as AuthorizationDecision | undefined;
  const by = decision?.decidedBy;
  if (!endpoint)
    return by === 'PLATFORM' || by === 'DEFAULT' || asked.length > 0 ? `decided by ${by} with no endpoint` : undefined;
  if (!decision) return 'no decision recorded';
  const { status, declineReason } = authorization;
  const amount = BigInt(authorization.amount);
  const requested = BigInt(authorization.requestedAmount ?? authorization.amount);
  const declinedByPlatform = status === 'DECLINED' && declineReason === 'PLATFORM_DECLINED';
  // An approval, the platform's or its default's, is recorded against the card as it is then: closed, not active or
  // over a control meanwhile (the card's rules, checked again when the outcome is recorded), it is declined with the
  // rules' reason.
  const declinedOnRecord = status === 'DECLINED' && declineReason !== 'PLATFORM_DECLINED';
  const answers = asked.map((a) => a.answer).join(',');
  switch (by) {
    case 'RULES':
      if (status === 'APPROVED') return 'approved by the rules alone: the endpoint was not asked';
      if (asked.length > 0 && declineReason !== 'INSUFFICIENT_FUNDS')
        return `the endpoint answered ${answers}, yet the rules decided ${status} ${declineReason ?? ''}`;
      return undefined;
    case 'PLATFORM': {
      const kept = asked.some((a) => {
        if (a.answer === 'APPROVE') return (status === 'APPROVED' && amount === requested) || declinedOnRecord;
        if (a.answer === 'PARTIAL')
          return (status === 'APPROVED' && amount === a.approvedAmount && requested > amount) || declinedOnRecord;
        if (a.answer === 'DECLINE') return declinedByPlatform && authorization.holdTransferId === null;
        return false;
      });
      return kept
        ? undefined
        : `recorded ${status} ${amount}/${requested} by PLATFORM, the endpoint answered ${answers}`;
    }
    case 'DEFAULT': {
      const defaultKept =
        endpoint.defaultDecision === 'APPROVE'
          ? (status === 'APPROVED' && amount === requested) || declinedOnRecord
          : declinedByPlatform;
      if (!defaultKept)
        return `recorded ${status} ${declineReason ?? ''} by DEFAULT, the default is ${endpoint.defaultDecision}`;
      return fallbackProblem(endpoint, asked, decision);
    }
    default:
      return `decided by ${by}`;
  }
}
