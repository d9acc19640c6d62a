import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { cardDecider } from '#domain/cards/card.js';
import { requireApproved, requireAuthorization } from '#domain/cards/card-authorization.js';
import { activityOf } from '#domain/cards/card-increments.js';
import { incrementHoldTransferId } from '#domain/cards/card-holds.js';
import type { AuthorizationDecision } from '#domain/cards/card-decision.js';
import {
  processorAuthorizationId,
  processorMessageDecider,
  processorMessageStream,
  processorReturnTransferId,
  type ProcessorAnswer,
  type ProcessorMessageType,
} from '#domain/cards/card-processor.js';
import { cardTransactionIdOf } from '#domain/cards/card-transaction.js';
import type { CardAuthorizationRecord, EntryMode, ExistingCard, Merchant } from '#domain/cards/card-types.js';
import { DomainError, invalid } from '#domain/errors.js';
import { streams, uuidOf, type IdGenerator } from '#domain/primitives.js';
import { CommandRunner } from '../command-runner.js';
import { KeyedLock } from '../command-runner-policy.js';
import { PlatformClocks } from '../command-context.js';
import { IDS, type Actor } from '../tokens.js';
import { CardAuthorizations, type AuthorizationRequest } from './card-authorizations.js';
import { CardLocks, loadOwnCard } from './card-commands.js';
import { CardProcessorConfig } from './card-processor-config.js';
import { CardLedger } from './card-ledger.js';
import {
  SimulateCardClearingCommand,
  SimulateCardClearingHandler,
  SimulateCardReturnCommand,
  SimulateCardReturnHandler,
} from './card-presentments.js';

/** An authorization request or an advice of the network's stand-in decision. */
export interface ProcessorAuthorization {
  type: 'AUTHORIZATION' | 'ADVICE';
  networkTransactionId: string;
  cardId: string;
  amount: bigint;
  currency: string;
  merchant: Merchant;
  entryMode?: EntryMode;
  /** An advice: what the network decided in stand-in. */
  networkDecision?: 'APPROVED' | 'DECLINED';
}

/** A message about an authorization the processor sent before (its `originalNetworkTransactionId`). */
export interface ProcessorFollowUp {
  type: ProcessorMessageType;
  networkTransactionId: string;
  originalNetworkTransactionId: string;
  cardId: string;
  /** Without an amount: all of it (what is held, cleared or settled). */
  amount?: bigint;
}

export type ProcessorMessage = ProcessorAuthorization | ProcessorFollowUp;

/** The answer to an authorization as recorded (the first outcome recorded for its network transaction id). */
export function answerOf(a: CardAuthorizationRecord): ProcessorAnswer {
  if (a.status === 'DECLINED')
    return { decision: 'DECLINED', approvedAmount: '0', declineReason: a.declineReason, authorizationId: a.id };
  return {
    decision: 'APPROVED',
    approvedAmount: a.amount,
    authorizationId: a.id,
    cardTransactionId: cardTransactionIdOf(a.id),
  };
}

const TIMED_OUT = Symbol('timed out');

/**
 * A card processor's messages for a platform's cards, production and sandbox alike: authorizations are decided by
 * the same sequence as the sandbox simulator's (`CardAuthorizations`) within the platform's decision deadline;
 * clearings and refunds take the simulators' path on the ledger. Each message is idempotent by the network's
 * transaction id. An unknown card, or another platform's, is declined CARD_NOT_FOUND and nothing is recorded.
 */
@Injectable()
export class CardProcessorMessages {
  private readonly logger = new Logger('CardProcessor');
  private readonly messages = new KeyedLock();

  constructor(
    private readonly runner: CommandRunner,
    private readonly authorizations: CardAuthorizations,
    private readonly config: CardProcessorConfig,
    private readonly clocks: PlatformClocks,
    private readonly locks: CardLocks,
    private readonly clearings: SimulateCardClearingHandler,
    private readonly returns: SimulateCardReturnHandler,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async answer(message: ProcessorMessage, actor: Actor): Promise<ProcessorAnswer> {
    const receivedAt = performance.now();
    if ('originalNetworkTransactionId' in message) return this.followUp(message, actor, receivedAt);
    return this.authorize(message, actor, receivedAt);
  }

  /** The card if it is one of the platform's, else undefined (unknown and other platforms' look the same). */
  private async ownCard(cardId: string, platformId: string): Promise<ExistingCard | undefined> {
    if (!uuidOf('Card', cardId)) return undefined;
    const { state } = await this.runner.load(streams.card(cardId), cardDecider);
    return state.exists && state.platformId === platformId ? state : undefined;
  }

  private async authorize(m: ProcessorAuthorization, actor: Actor, receivedAt: number): Promise<ProcessorAnswer> {
    const authorizationId = processorAuthorizationId(actor.platformId, m.networkTransactionId);
    const card = await this.ownCard(m.cardId, actor.platformId);
    if (!card) return notFound(authorizationId);
    const recorded = card.authorizations.get(authorizationId);
    if (recorded) return answerOf(recorded);
    const request: AuthorizationRequest = {
      authorizationId,
      amount: m.amount,
      currency: m.currency,
      merchant: m.merchant,
      networkTransactionId: m.networkTransactionId,
      ...(m.entryMode ? { entryMode: m.entryMode } : {}),
      derivedHolds: true,
      receivedAt,
    };
    if (m.type === 'ADVICE') return answerOf(await this.advise(card, request, m.networkDecision === 'APPROVED', actor));
    return this.withinDeadline(card.card.id, request, actor);
  }

  /**
   * Decides by the rules unless the platform's deadline passes first: then the platform's stand-in decision is
   * recorded and answered. Whichever outcome is recorded first is the authorization's; the other releases its hold.
   */
  private async withinDeadline(
    cardId: string,
    request: AuthorizationRequest,
    actor: Actor,
    answer: (recorded: CardAuthorizationRecord) => ProcessorAnswer = answerOf,
  ): Promise<ProcessorAnswer> {
    const { decisionDeadlineMs, standInDecision } = await this.config.settings(actor.platformId);
    const decided = this.authorizations.authorize(cardId, request, actor);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, decisionDeadlineMs - elapsed(request)));
    });
    try {
      const first = await Promise.race([decided, deadline]);
      if (first !== TIMED_OUT) return answer(first);
    } finally {
      clearTimeout(timer);
    }
    decided.catch((error: unknown) => this.logger.warn(`late decision of ${request.authorizationId} failed: ${error}`));
    const reason = `no decision within ${decisionDeadlineMs} ms: the platform's stand-in decision ${standInDecision}`;
    return answer(await this.authorizations.standIn(cardId, request, standInDecision === 'APPROVE', actor, reason));
  }

  /** An advice: recorded as the network took it, under the card's lock. */
  private async advise(card: ExistingCard, request: AuthorizationRequest, approved: boolean, actor: Actor) {
    const decision: AuthorizationDecision = {
      decidedBy: 'STAND_IN',
      elapsedMs: elapsed(request),
      reason: `the network decided in stand-in (advice): ${approved ? 'APPROVED' : 'DECLINED'}`,
    };
    const clock = await this.clocks.forPlatform(actor.platformId);
    return this.locks.run(card.card.id, async () => {
      const state = await loadOwnCard(this.runner, card.card.id, actor);
      const ledger = new CardLedger(this.runner, clock, this.ids, actor.platformId, { ...actor });
      const outcome = approved
        ? { approved: true as const }
        : { approved: false as const, reason: 'NETWORK_DECLINED' as const };
      return this.authorizations.forced(state, request, outcome, { decision, ledger, actor });
    });
  }

  /** A clearing, refund or reversal: answered once per network transaction id; a replay gets the same answer. */
  private async followUp(m: ProcessorFollowUp, actor: Actor, receivedAt: number): Promise<ProcessorAnswer> {
    const stream = processorMessageStream(actor.platformId, m.type, m.networkTransactionId);
    return this.messages.run(stream, async () => {
      const { state } = await this.runner.load(stream, processorMessageDecider);
      if (state.answer) return state.answer;
      const authorizationId = processorAuthorizationId(actor.platformId, m.originalNetworkTransactionId);
      const card = await this.ownCard(m.cardId, actor.platformId);
      if (!card) return notFound(authorizationId);
      const applied =
        m.type === 'INCREMENTAL_AUTHORIZATION'
          ? this.increment(card, m, authorizationId, actor, receivedAt)
          : this.apply(m, authorizationId, actor);
      const answer = await applied.catch((error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        return { decision: 'DECLINED' as const, approvedAmount: '0', declineReason: error.code, authorizationId };
      });
      const now = (await this.clocks.now(actor.platformId)).toISOString();
      const { type, networkTransactionId } = m;
      const command = { type: 'RecordProcessorAnswer' as const, platformId: actor.platformId, now };
      const record = { ...command, messageType: type, networkTransactionId, answer };
      const { state: answered } = await this.runner.run(stream, processorMessageDecider, record, {
        metadata: { ...actor },
      });
      return answered.answer ?? answer;
    });
  }

  private async increment(card: ExistingCard, m: ProcessorFollowUp, authorizationId: string, actor: Actor, at: number) {
    const amount = m.amount;
    if (amount === undefined) throw invalid('INVALID_AMOUNT', 'an increment needs its amount', 'amount');
    // Decided as an authorization is, within the same deadline (the stand-in answers past it).
    const request = incrementRequest(card, { ...m, amount }, authorizationId, at);
    const answerFor = (recorded: CardAuthorizationRecord) => incrementAnswer(recorded, m.networkTransactionId);
    const answer = await this.withinDeadline(card.card.id, request, actor, answerFor);
    // A declined increment holds nothing: a hold that an interrupted earlier try placed under its id is released.
    if (answer.decision === 'DECLINED') {
      const ledger = await CardLedger.forPlatform(this.runner, this.clocks, this.ids, actor.platformId, { ...actor });
      const stray = incrementHoldTransferId(authorizationId, m.networkTransactionId);
      if (await ledger.isHeld(stray)) await ledger.void(stray);
    }
    return answer;
  }

  private async apply(m: ProcessorFollowUp, authorizationId: string, actor: Actor): Promise<ProcessorAnswer> {
    const cardTransactionId = cardTransactionIdOf(authorizationId);
    const presentment = { cardTransactionId, ...(m.amount !== undefined ? { amount: m.amount } : {}) };
    if (m.type === 'CLEARING')
      await this.clearings.apply(new SimulateCardClearingCommand(m.cardId, presentment, actor));
    else if (m.type === 'REFUND') {
      const transferId = processorReturnTransferId(actor.platformId, m.networkTransactionId);
      await this.returns.apply(new SimulateCardReturnCommand(m.cardId, { ...presentment, transferId }, actor));
    } else await this.clearings.reverse(m.cardId, authorizationId, actor, m.amount, m.networkTransactionId);
    const { state } = await this.runner.load(streams.card(m.cardId), cardDecider);
    const last = requireAuthorization(state, authorizationId).activity.at(-1)!;
    const approved = last.result === 'APPROVED';
    return {
      decision: approved ? 'APPROVED' : 'DECLINED',
      approvedAmount: approved ? last.amount : '0',
      ...(last.declineReason ? { declineReason: last.declineReason } : {}),
      authorizationId,
      cardTransactionId,
    };
  }
}

/**
 * An incremental authorization: decided by the same sequence as an authorization, for the increment, and held on the
 * authorization's funding source as a second hold.
 */
function incrementRequest(
  card: ExistingCard,
  m: ProcessorFollowUp & { amount: bigint },
  authorizationId: string,
  receivedAt: number,
): AuthorizationRequest {
  const original = requireApproved(card, authorizationId);
  return {
    authorizationId,
    amount: m.amount,
    currency: original.currency,
    merchant: original.merchant,
    increment: { networkTransactionId: m.networkTransactionId, fundingSourceId: original.fundingSourceId },
    receivedAt,
  };
}

/** The answer to an increment: what its authorization recorded for it. */
function incrementAnswer(recorded: CardAuthorizationRecord, networkTransactionId: string): ProcessorAnswer {
  const authorizationId = recorded.id;
  const entry = activityOf(recorded, networkTransactionId);
  if (!entry || entry.result === 'DECLINED') {
    const declineReason = entry?.declineReason ?? 'INSUFFICIENT_FUNDS';
    return { decision: 'DECLINED', approvedAmount: '0', declineReason, authorizationId };
  }
  const cardTransactionId = cardTransactionIdOf(authorizationId);
  return { decision: 'APPROVED', approvedAmount: entry.amount, authorizationId, cardTransactionId };
}

const elapsed = (request: AuthorizationRequest) => performance.now() - request.receivedAt;

const notFound = (authorizationId: string): ProcessorAnswer => ({
  decision: 'DECLINED',
  approvedAmount: '0',
  declineReason: 'CARD_NOT_FOUND',
  authorizationId,
});
