import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { cardDecider } from '#domain/cards/card.js';
import {
  clearingPlan,
  clearingsPosted,
  clearingTransferId,
  heldAmount,
  isInsufficientFunds,
  requireApproved,
  requireTransaction,
  returnPlan,
} from '#domain/cards/card-authorization.js';
import {
  clearingSplit,
  holdPostTransferId,
  holdsOf,
  reversalReholdTransferId,
  reversalSplit,
} from '#domain/cards/card-holds.js';
import { activityOf, requireHolding } from '#domain/cards/card-increments.js';
import { authorizationIdOf, checkExpiry, toCardTransaction } from '#domain/cards/card-transaction.js';
import type {
  ApprovedAuthorization,
  CardAggregate,
  CardAuthorizationCommand,
  CardCommand,
  ProcessorReversalReason,
} from '#domain/cards/card-types.js';
import { invalid } from '#domain/errors.js';
import { formatAmount, streams } from '#domain/primitives.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { CommandContext } from '../command-context.js';
import { requireSandbox } from '../payments/ledger/fund-commands.js';
import { JOB_QUEUE, type Actor } from '../tokens.js';
import { CardLocks, loadOwnCard } from './card-commands.js';
import { CardLedger, CardTransferCode, customerAccount } from './card-ledger.js';

/** The ledger leg posting the `index`th hold of a clearing (the first keeps the one-hold leg's id). */
const clearingPostId = (authorizationId: string, sequence: number, index: number) =>
  index === 0
    ? clearingTransferId(authorizationId, 'post', sequence)
    : holdPostTransferId(authorizationId, sequence, index);

/** Whether any hold of the authorization is still pending (neither posted nor voided). */
async function anyHeld(ledger: CardLedger, a: ApprovedAuthorization): Promise<boolean> {
  for (const hold of holdsOf(a)) if (await ledger.isHeld(hold.transferId)) return true;
  return false;
}

/** A message of the card network about one card, from the sandbox endpoints or a card processor. */
export abstract class CardNetworkCommand<Input> {
  constructor(
    readonly cardId: string,
    readonly input: Input,
    readonly actor: Actor,
  ) {}
}
/** A clearing or a return names the card transaction; without an amount, all of it. */
type Presentment = { cardTransactionId: string; amount?: bigint };

export class SimulateCardClearingCommand extends CardNetworkCommand<Presentment> {}
/** A return; `transferId`: its ledger transfer's id, derived from a processor's message (a replay moves nothing). */
export class SimulateCardReturnCommand extends CardNetworkCommand<Presentment & { transferId?: string }> {}

/** A card of the caller's platform, as loadOwnCard answers it. */
type OwnCard = Awaited<ReturnType<typeof loadOwnCard>>;

/**
 * Shared plumbing of clearings and returns: sandbox check (the simulators), per-card lock, ledger, recording. A card
 * processor's messages take the same path through `apply`, on any platform.
 */
abstract class CardNetworkHandler<Command extends CardNetworkCommand<unknown>> {
  constructor(
    protected readonly ctx: CommandContext,
    protected readonly locks: CardLocks,
    @Inject(JOB_QUEUE) protected readonly jobs: JobQueue,
  ) {}

  /** The simulator: sandbox platforms only. */
  async execute(command: Command): Promise<Record<string, unknown>> {
    await requireSandbox(this.ctx.runner, command.actor);
    return this.apply(command);
  }

  /** Under the card's lock, applies the message to the card loaded there, with a ledger on the platform's clock. */
  async apply(command: Command): Promise<Record<string, unknown>> {
    const { cardId, actor } = command;
    const clock = await this.ctx.clocks.forPlatform(actor.platformId);
    return this.locks.run(cardId, async () => {
      const ledger = new CardLedger(this.ctx.runner, clock, this.ctx.ids, actor.platformId, { ...actor });
      return this.simulate(command, await loadOwnCard(this.ctx.runner, cardId, actor), ledger);
    });
  }

  protected abstract simulate(command: Command, state: OwnCard, ledger: CardLedger): Promise<Record<string, unknown>>;

  protected async record(cardId: string, command: CardCommand, actor: Actor): Promise<CardAggregate> {
    const { state } = await this.ctx.runner.run(streams.card(cardId), cardDecider, command, { metadata: { ...actor } });
    return state;
  }

  /** The CardTransaction the authorization opened, as the network's message left it. */
  protected transaction = (state: CardAggregate, authorizationId: string) =>
    toCardTransaction(requireTransaction(state, authorizationId));

  protected now = async (actor: Actor) => (await this.ctx.clocks.now(actor.platformId)).toISOString();
}

/**
 * A clearing (presentment). Within the hold: post it (a partial amount releases the rest). Above it
 * (over-authorization): the extra is a separate posted transfer, taken first so that without the
 * funds nothing moves and the clearing is declined. After the card closed and the hold was released:
 * late presentment, a new posted transfer from the same funding source if it still has the funds.
 */
@CommandHandler(SimulateCardClearingCommand)
export class SimulateCardClearingHandler extends CardNetworkHandler<SimulateCardClearingCommand> {
  protected async simulate({ cardId, input, actor }: SimulateCardClearingCommand, state: OwnCard, ledger: CardLedger) {
    const authorizationId = authorizationIdOf(input.cardTransactionId);
    if (input.amount === 0n) return this.expire(cardId, state, authorizationId, ledger, actor);
    const plan = clearingPlan(state, authorizationId, input.amount);
    const a = plan.authorization;
    const funding = customerAccount(a.fundingSourceId, a.currency);
    const settlement = await ledger.settlement(a.currency);
    // A hold that a crash kept from being released is still the money to clear.
    const lateKind = plan.kind === 'LATE' && !(await anyHeld(ledger, a));
    // The decision is taken on the card stream (expected revision) before any money moves: another
    // process clearing the same authorization conflicts there and decides again on what this wrote.
    const now = await this.now(actor);
    const start = { type: 'StartClearing' as const, authorizationId: a.id, amount: plan.amount, now };
    const options = { metadata: { ...actor }, answersAfter: 'append' as const };
    const reserve = { ...start, latePresentment: lateKind };
    const { state: started } = await this.ctx.runner.run(streams.card(cardId), cardDecider, reserve, options);
    const intent = started.clearings.get(a.id);
    // Recorded meanwhile by another process: the state says how it ended.
    if (!intent) return this.transaction(started, a.id);
    // The authorization as the reservation found it (another process may have recorded a clearing before).
    const current = requireApproved(started, a.id);
    const held = heldAmount(current);
    const sequence = clearingsPosted(current);
    const amount = BigInt(intent.amount);
    const late = intent.latePresentment;
    const transferIds: string[] = [];
    const leg = (code: string, legAmount: bigint) => ({
      debit: funding,
      credit: settlement,
      amount: legAmount,
      pending: false,
      code,
      reference: a.id,
    });
    const outcome = async (o: Extract<CardAuthorizationCommand, { type: 'RecordClearing' }>['outcome']) => {
      const recordedAt = await this.now(actor);
      const command = {
        type: 'RecordClearing' as const,
        authorizationId: a.id,
        amount,
        sequence,
        outcome: o,
        now: recordedAt,
      };
      return this.transaction(await this.record(cardId, command, actor), a.id);
    };
    let rehold: { transferId: string; amount: bigint } | undefined;
    try {
      if (late) {
        const id = clearingTransferId(a.id, 'latePresentment', sequence);
        transferIds.push(await ledger.transfer(leg(CardTransferCode.latePresentment, amount), id));
      } else {
        if (amount > held) {
          const id = clearingTransferId(a.id, 'overAuthorization', sequence);
          transferIds.push(await ledger.transfer(leg(CardTransferCode.overAuthorization, amount - held), id));
        }
        // The holds post oldest first (an incremented authorization has several); the one the amount ends in
        // releases its rest, held again at once; later ones stay as they are.
        const split = clearingSplit(holdsOf(current), amount);
        for (const [index, hold] of split.posts.entries())
          transferIds.push(await ledger.post(hold.transferId, hold.amount, clearingPostId(a.id, sequence, index)));
        const reholdId = clearingTransferId(a.id, 'rehold', sequence);
        if (split.rest) rehold = await this.holdRest(ledger, current, split.rest, reholdId);
      }
    } catch (error) {
      if (!isInsufficientFunds(error)) throw error;
      return outcome({ posted: false, declineReason: 'INSUFFICIENT_FUNDS' });
    }
    return outcome({ posted: true, transferIds, latePresentment: late, ...(rehold ? { rehold } : {}) });
  }

  /**
   * A clearing below the hold posts part of it and releases the rest; the rest is held again at once (a new
   * pending transfer with an id derived from the clearing) so that later clearings of the same authorization
   * find it: the transaction is PARTIALLY_SETTLED until the rest clears, expires or the card closes. If the
   * funding source spent the released rest meanwhile, nothing is held and the transaction is SETTLED.
   */
  private async holdRest(ledger: CardLedger, a: ApprovedAuthorization, rest: bigint, id: string) {
    const settlement = await ledger.settlement(a.currency);
    const transfer = {
      debit: customerAccount(a.fundingSourceId, a.currency),
      credit: settlement,
      amount: rest,
      pending: true,
      code: CardTransferCode.hold,
      reference: a.id,
    };
    try {
      const transferId = await ledger.transfer(transfer, id);
      return { transferId, amount: rest };
    } catch (error) {
      if (!isInsufficientFunds(error)) throw error;
      return undefined;
    }
  }

  /**
   * A reversal from the card processor: without an amount, or of all that is held, every hold is released now (a
   * clearing of 0, with the network's reason); of less, that much is released (see partialReversal). A transaction
   * that holds nothing any more is refused, and so is an amount above what it holds.
   */
  async reverse(cardId: string, authorizationId: string, actor: Actor, amount?: bigint, networkTransactionId = '') {
    const clock = await this.ctx.clocks.forPlatform(actor.platformId);
    await this.locks.run(cardId, async () => {
      const state = await loadOwnCard(this.ctx.runner, cardId, actor);
      const ledger = new CardLedger(this.ctx.runner, clock, this.ctx.ids, actor.platformId, { ...actor });
      const transaction = requireTransaction(state, authorizationId);
      if (amount !== undefined && amount > transaction.held)
        throw invalid(
          'INVALID_AMOUNT',
          `at most the held amount ${formatAmount(transaction.held, transaction.currency)} can be reversed`,
          'amount',
        );
      if (amount === undefined || amount === transaction.held || !networkTransactionId)
        await this.expire(cardId, state, authorizationId, ledger, actor, 'NETWORK_REVERSAL');
      else await this.partialReversal(cardId, state, { authorizationId, amount, networkTransactionId }, ledger, actor);
    });
  }

  /**
   * A reversal of part of what is held releases that much, from the newest hold back: the holds it covers are
   * voided, and the one it cuts into is voided and its rest held again (a pending transfer with an id derived from
   * the reversal, so a replay holds it once). The authorization stays APPROVED with less held.
   */
  private async partialReversal(
    cardId: string,
    state: OwnCard,
    reversal: { authorizationId: string; amount: bigint; networkTransactionId: string },
    ledger: CardLedger,
    actor: Actor,
  ) {
    const { authorizationId, amount, networkTransactionId } = reversal;
    if (activityOf(requireApproved(state, authorizationId), networkTransactionId)) return;
    const a = requireHolding(state, authorizationId);
    const split = reversalSplit(holdsOf(a), amount);
    for (const hold of split.voided) if (await ledger.isHeld(hold.transferId)) await ledger.void(hold.transferId);
    const reholdId = reversalReholdTransferId(a.id, networkTransactionId);
    const rehold = split.rest ? await this.holdRest(ledger, a, split.rest, reholdId) : undefined;
    const now = await this.now(actor);
    const command = { type: 'RecordPartialReversal' as const, authorizationId, networkTransactionId, amount, now };
    await this.record(cardId, { ...command, ...(rehold ? { rehold } : {}) }, actor);
  }

  /**
   * A clearing of 0: the authorization expires now with nothing cleared (the worker's expiry, brought
   * forward): reversed on the card stream, then every open hold carrying its reference is voided.
   */
  private async expire(
    cardId: string,
    state: CardAggregate,
    authorizationId: string,
    ledger: CardLedger,
    actor: Actor,
    reason?: ProcessorReversalReason,
  ) {
    checkExpiry(requireTransaction(state, authorizationId));
    const now = await this.now(actor);
    const command = { type: 'ExpireAuthorization' as const, authorizationId, now, ...(reason ? { reason } : {}) };
    const expired = await this.record(cardId, command, actor);
    if (expired.authorizations.get(authorizationId)?.status === 'REVERSED' && !expired.clearings.has(authorizationId))
      for (const hold of await ledger.openHoldsFor(authorizationId)) await ledger.void(hold);
    return this.transaction(expired, authorizationId);
  }
}

/**
 * A return (merchant refund) of a cleared amount: settlement pays the funding source back, whatever the card's state.
 */
@CommandHandler(SimulateCardReturnCommand)
export class SimulateCardReturnHandler extends CardNetworkHandler<SimulateCardReturnCommand> {
  protected async simulate({ cardId, input, actor }: SimulateCardReturnCommand, state: OwnCard, ledger: CardLedger) {
    const plan = returnPlan(state, authorizationIdOf(input.cardTransactionId), input.amount);
    const a = plan.authorization;
    const settlement = await ledger.settlement(a.currency);
    const transfer = {
      debit: settlement,
      credit: customerAccount(a.fundingSourceId, a.currency),
      amount: plan.amount,
      pending: false,
      code: CardTransferCode.return,
      reference: a.id,
    };
    const transferId = await ledger.transfer(transfer, input.transferId);
    const returned = await this.record(
      cardId,
      { type: 'RecordReturn', authorizationId: a.id, amount: plan.amount, transferId, now: await this.now(actor) },
      actor,
    );
    return this.transaction(returned, a.id);
  }
}
