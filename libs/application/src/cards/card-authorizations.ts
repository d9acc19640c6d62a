import { Inject, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { CommandHandler } from '@nestjs/cqrs';
import { cardDecider } from '#domain/cards/card.js';
import {
  declined,
  isInsufficientFunds,
  requireAuthorization,
  requireTransaction,
  sandboxDecline as sandboxDeclineOf,
  sandboxPullFails,
  screenAuthorization,
} from '#domain/cards/card-authorization.js';
import { toCardTransaction } from '#domain/cards/card-transaction.js';
import type {
  CardAggregate,
  CardAuthorizationCommand,
  CardAuthorizationRecord,
  DeclineReason,
  EntryMode,
  ExistingCard,
  Merchant,
} from '#domain/cards/card-types.js';
import type { AuthorizationDecision } from '#domain/cards/card-decision.js';
import { processorHoldTransferId } from '#domain/cards/card-processor.js';
import { holdTransferIds, incrementHoldTransferId } from '#domain/cards/card-holds.js';
import { incrementCommand, recordedIncrement } from '#domain/cards/card-increments.js';
import { CommandContext, slowDecisionStep } from '../command-context.js';
import type { PlatformDecisions } from '../decisions/platform-decisions.js';
import { askPlatformAboutCard, recordedDecision, type CardPlatformAnswer } from './card-decisions.js';
import { customerDecider } from '#domain/customers/customer.js';
import { publicId, streams } from '#domain/primitives.js';
import { requireSandbox } from '../payments/ledger/fund-commands.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { JOB_QUEUE, PLATFORM_DECISIONS, type Actor } from '../tokens.js';
import { scheduleAuthorizationExpiry } from './card-jobs.js';
import { CardLocks, loadOwnCard } from './card-commands.js';
import { CardLedger, CardTransferCode, customerAccount } from './card-ledger.js';
import { CardNetworkCommand, SimulateCardClearingHandler, SimulateCardReturnHandler } from './card-presentments.js';
import { spendingPreCheck } from './card-spending-controls.js';
import type { SpendingControls } from '#domain/cards/card-spending.js';
import { effectId, effectIds } from '../idempotency/effect-ids.js';

/** A message of the card network about one card, from the sandbox endpoints. */
export class SimulateCardAuthorizationCommand extends CardNetworkCommand<{
  amount: bigint;
  currency: string;
  merchant: Merchant;
}> {}

/**
 * An authorization request, from the sandbox simulator or a card processor's message: what the network asks, and how
 * the caller wants it decided.
 */
export interface AuthorizationRequest {
  authorizationId: string;
  amount: bigint;
  /** What the network asked when the platform approved less (`amount`): a partial approval. */
  requestedAmount?: bigint;
  currency: string;
  merchant: Merchant;
  networkTransactionId?: string;
  entryMode?: EntryMode;
  /** The sandbox's decline by merchant descriptor (the simulator's magic values), after the card's own screening. */
  sandboxDecline?: DeclineReason;
  /**
   * Holds with ids derived from the authorization and the funding source (processor messages): a stand-in answer
   * and a late decision place the same hold on the same source, never two.
   */
  derivedHolds?: boolean;
  /**
   * An incremental authorization of the approved `authorizationId`, decided for `amount` (the increment) and held on
   * the authorization's funding source with an id derived from the increment's network id.
   */
  increment?: { networkTransactionId: string; fundingSourceId: string };
  /** When the request arrived, on the monotonic clock (`performance.now()`): the decision records how long it took. */
  receivedAt: number;
}

/**
 * Authorization decisioning, one path for the sandbox simulator and card processors' messages: the card is screened,
 * then its spending controls, then the platform's decision, then the funding sources are tried in priority order and
 * the first ACTIVE one with the funds gets a hold (a pending transfer to the settlement account); none ->
 * INSUFFICIENT_FUNDS. The outcome is recorded on the card stream, where the first recorded outcome of an
 * authorization id wins: a decision that lost (a stand-in answer was recorded first) releases the hold it placed.
 */
@Injectable()
export class CardAuthorizations {
  constructor(
    private readonly ctx: CommandContext,
    private readonly locks: CardLocks,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(PLATFORM_DECISIONS) private readonly decisions: PlatformDecisions,
  ) {}

  /** Decides `request` on the card under its lock, and answers the authorization as recorded. */
  async authorize(cardId: string, request: AuthorizationRequest, actor: Actor): Promise<CardAuthorizationRecord> {
    const clock = await this.ctx.clocks.forPlatform(actor.platformId);
    return this.locks.run(cardId, async () => {
      const ledger = new CardLedger(this.ctx.runner, clock, effectIds(actor, this.ctx.ids), actor.platformId, {
        ...actor,
      });
      return this.decide(await loadOwnCard(this.ctx.runner, cardId, actor), request, ledger, actor);
    });
  }

  /** The decision sequence (keep it in this one function): screen, controls, platform, holds, record. */
  private async decide(state: ExistingCard, request: AuthorizationRequest, ledger: CardLedger, actor: Actor) {
    const { card } = state;
    const { authorizationId } = request;
    // Already recorded (a replayed message): its outcome stands.
    const recorded = request.increment
      ? recordedIncrement(state, authorizationId, request.increment.networkTransactionId)
      : state.authorizations.get(authorizationId);
    if (recorded) return recorded;
    // 1. The card: its state and currency.
    let declineReason: DeclineReason | undefined =
      screenAuthorization(card, request.currency) ?? request.sandboxDecline;
    // 2. Spending controls: the card's rules on amounts, merchants and categories (checked again when recorded).
    const now = (await this.ctx.clocks.now(actor.platformId)).toISOString();
    // An increment is checked with what its authorization already holds (the per-authorization limit counts both).
    const authorized = request.increment ? state.authorizations.get(authorizationId)?.amount : undefined;
    const spendRequest = { ...request, now, ...(authorized !== undefined ? { authorized: BigInt(authorized) } : {}) };
    const spending = await spendingPreCheck(this.ctx.runner, state, spendRequest);
    declineReason ??= spending.declineReason;
    // 3. Platform decision: the platform's decision endpoint, asked when the rules approve; it may approve less.
    let platform: CardPlatformAnswer | undefined;
    if (!declineReason) {
      await slowDecisionStep(authorizationId);
      const asked = { platformId: actor.platformId, card, authorizationId, input: request };
      platform = await askPlatformAboutCard(this.decisions, this.ctx.ids, { ...asked, startedAt: request.receivedAt });
      declineReason = platform?.declineReason;
    }
    const amount = platform?.amount ?? request.amount;
    const decided = amount === request.amount ? request : { ...request, amount, requestedAmount: request.amount };
    // 4. Funding holds.
    let hold: { fundingSourceId: string; transferId: string } | undefined;
    if (!declineReason) {
      hold = await this.placeHold(state, decided, ledger, actor);
      if (!hold) declineReason = 'INSUFFICIENT_FUNDS';
    }
    // 5. Record: the first outcome recorded for the authorization id wins.
    const decision = recordedDecision(platform, declineReason, elapsedSince(request.receivedAt));
    const { defaultSpendingControls } = spending;
    const outcome = { ...(hold ? { hold } : { declineReason }), decision, defaultSpendingControls };
    return this.record(card.id, decided, outcome, ledger, actor);
  }

  /**
   * The stand-in outcome of an authorization the service could not decide in time, recorded without waiting for
   * the card's lock (the late decision holds it): DECLINE records a decline, APPROVE a hold on the first funding
   * source with the funds, past the card's rules. A decision recorded first stands.
   */
  async standIn(cardId: string, request: AuthorizationRequest, approve: boolean, actor: Actor, reason: string) {
    const clock = await this.ctx.clocks.forPlatform(actor.platformId);
    const ledger = new CardLedger(this.ctx.runner, clock, effectIds(actor, this.ctx.ids), actor.platformId, {
      ...actor,
    });
    const state = await loadOwnCard(this.ctx.runner, cardId, actor);
    const decision: AuthorizationDecision = {
      decidedBy: 'STAND_IN',
      elapsedMs: elapsedSince(request.receivedAt),
      reason,
    };
    return this.forced(state, request, approve ? { approved: true } : { approved: false, reason: 'STAND_IN' }, {
      decision,
      ledger,
      actor,
    });
  }

  /**
   * An outcome the network took (an advice) or the stand-in gave: recorded as taken. An approval places the hold on
   * the first funding source with the funds whatever the card's rules (an increment's, on its authorization's);
   * without one it is declined INSUFFICIENT_FUNDS.
   */
  async forced(
    state: ExistingCard,
    request: AuthorizationRequest,
    outcome: { approved: true } | { approved: false; reason: DeclineReason },
    on: { decision: AuthorizationDecision; ledger: CardLedger; actor: Actor },
  ): Promise<CardAuthorizationRecord> {
    const recorded = request.increment
      ? recordedIncrement(state, request.authorizationId, request.increment.networkTransactionId)
      : state.authorizations.get(request.authorizationId);
    if (recorded) return recorded;
    const hold = outcome.approved ? await this.placeHold(state, request, on.ledger, on.actor) : undefined;
    const declineReason = outcome.approved ? 'INSUFFICIENT_FUNDS' : outcome.reason;
    const result = hold ? { hold } : { declineReason };
    return this.record(state.card.id, request, { ...result, decision: on.decision }, on.ledger, on.actor);
  }

  /** The first ACTIVE funding source with the funds gets a pending transfer to the settlement account. */
  private async placeHold(state: ExistingCard, request: AuthorizationRequest, ledger: CardLedger, actor: Actor) {
    const { card } = state;
    const { authorizationId } = request;
    const at = (await this.ctx.clocks.now(actor.platformId)).toISOString();
    await scheduleAuthorizationExpiry(this.jobs, {
      cardId: card.id,
      platformId: actor.platformId,
      authorizationId,
      at,
    });
    const { state: holder } = await this.ctx.runner.load(streams.customer(card.customerId), customerDecider);
    const settlement = await ledger.settlement(card.currency);
    // An increment is held where its authorization is, or not at all.
    for (const fundingSourceId of request.increment ? [request.increment.fundingSourceId] : card.fundingSources) {
      if (holder.accounts.get(fundingSourceId)?.status !== 'ACTIVE') continue;
      const transfer = {
        debit: customerAccount(fundingSourceId, card.currency),
        credit: settlement,
        amount: request.amount,
        pending: true,
        code: CardTransferCode.hold,
        reference: authorizationId,
      };
      try {
        const id = request.increment
          ? incrementHoldTransferId(authorizationId, request.increment.networkTransactionId)
          : request.derivedHolds
            ? processorHoldTransferId(authorizationId, fundingSourceId, request.amount)
            : undefined;
        return { fundingSourceId, transferId: await ledger.transfer(transfer, id) };
      } catch (error) {
        if (!isInsufficientFunds(error)) throw error;
      }
    }
    return undefined;
  }

  /** Records the outcome; a hold that did not make it into the record (declined meanwhile, or lost) is released. */
  private async record(
    cardId: string,
    request: AuthorizationRequest,
    outcome: { hold?: { fundingSourceId: string; transferId: string }; declineReason?: DeclineReason } & {
      decision: AuthorizationDecision;
      defaultSpendingControls?: SpendingControls | null;
    },
    ledger: CardLedger,
    actor: Actor,
  ): Promise<CardAuthorizationRecord> {
    const { authorizationId, amount, requestedAmount, currency, merchant, networkTransactionId, entryMode } = request;
    const now = (await this.ctx.clocks.now(actor.platformId)).toISOString();
    const command: CardAuthorizationCommand = {
      type: 'RecordAuthorization',
      ...{ authorizationId, amount, currency, merchant, ...outcome, now },
      ...(networkTransactionId !== undefined ? { networkTransactionId, entryMode } : {}),
      ...(requestedAmount !== undefined ? { requestedAmount } : {}),
    };
    const meta = { metadata: { ...actor } };
    const { increment } = request;
    const recording = increment ? incrementCommand(request, increment.networkTransactionId, outcome, now) : command;
    const { state } = await this.ctx.runner.run(streams.card(cardId), cardDecider, recording, meta);
    const recorded = requireAuthorization(state, authorizationId);
    const hold = outcome.hold?.transferId;
    // The card closed while the hold was being placed, or another outcome was recorded first: release the hold.
    if (hold && !holdTransferIds(recorded).includes(hold) && (await ledger.isHeld(hold))) await ledger.void(hold);
    return recorded;
  }
}

/** Milliseconds since `receivedAt` on the monotonic clock, whole. */
const elapsedSince = (receivedAt: number) => Math.max(0, Math.round(performance.now() - receivedAt));

/**
 * An authorization from the card network, simulated for sandbox platforms: decided by `CardAuthorizations` (with the
 * sandbox's magic descriptors), a decline answered 400 with its reason. An approval that is not cleared within
 * AUTHORIZATION_VALIDITY_MS expires: the worker reverses it and voids the hold.
 */
@CommandHandler(SimulateCardAuthorizationCommand)
export class SimulateCardAuthorizationHandler {
  constructor(
    private readonly ctx: CommandContext,
    private readonly authorizations: CardAuthorizations,
  ) {}

  async execute({ cardId, input, actor }: SimulateCardAuthorizationCommand): Promise<Record<string, unknown>> {
    await requireSandbox(this.ctx.runner, actor);
    const receivedAt = performance.now();
    const authorizationId = publicId('CardAuthorization', effectId(actor, this.ctx.ids));
    const sandboxDecline = sandboxDeclineOf(input.merchant.descriptor);
    const request = { authorizationId, ...input, ...(sandboxDecline ? { sandboxDecline } : {}), receivedAt };
    const recorded = await this.authorizations.authorize(cardId, request, actor);
    // A declined authorization stays in the card's history; it opens no transaction.
    if (recorded.status === 'DECLINED') throw declined(recorded);
    const clock = await this.ctx.clocks.forPlatform(actor.platformId);
    const ledger = new CardLedger(this.ctx.runner, clock, effectIds(actor, this.ctx.ids), actor.platformId, {
      ...actor,
    });
    const now = async () => (await this.ctx.clocks.now(actor.platformId)).toISOString();
    let state: CardAggregate;
    if (sandboxPullFails(input.merchant.descriptor)) {
      const failure = { type: 'ExpireAuthorization' as const, authorizationId, reason: 'PULL_FAILED' as const };
      const meta = { metadata: { ...actor } };
      ({ state } = await this.ctx.runner.run(
        streams.card(cardId),
        cardDecider,
        { ...failure, now: await now() },
        meta,
      ));
      for (const open of await ledger.openHoldsFor(authorizationId)) await ledger.void(open);
    } else ({ state } = await this.ctx.runner.load(streams.card(cardId), cardDecider));
    return toCardTransaction(requireTransaction(state, authorizationId));
  }
}

export const cardAuthorizationHandlers = [
  CardAuthorizations,
  SimulateCardAuthorizationHandler,
  SimulateCardClearingHandler,
  SimulateCardReturnHandler,
];
