import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { authorizeOperation } from '#domain/agents/agent-policy.js';
import { agentDecider, agentStream, requireAction } from '#domain/agents/agent.js';
import type {
  ActionRequest,
  AgentActionDecision,
  AgentActionSnapshot,
  AgentCommand,
  AgentState,
  ExistingAgent,
} from '#domain/agents/agent-types.js';
import { toAgentActionResource } from '#domain/agents/agent-views.js';
import { DomainError, conflict, notFound } from '#domain/errors.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { isQuoteExpired, quoteDecider, toQuoteResource, type QuoteRecord } from '#domain/payments/quotes/quote.js';
import {
  toTransactionResource,
  transactionDecider,
  type TransactionRecord,
} from '#domain/payments/transactions/transaction.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../command-context.js';
import { requireSupportedCurrencies } from '../platforms/platform-config.js';
import type { PlatformQuoteRequest } from '../payments/quotes/quote-builder.js';
import {
  CreateQuoteCommand,
  authorizeExecution,
  loadOwnQuote,
  quoteRef,
  requireExecutable,
  startQuote,
} from '../payments/quotes/quote-commands.js';
import { PLATFORM_DECISIONS, READ_MODELS, type Actor } from '../tokens.js';
import type { PlatformDecisions } from '../decisions/platform-decisions.js';
import { askPlatformAboutAction } from './agent-decisions.js';
import {
  requireLiveAccounts,
  type LiveExternalAccount,
  type OwnedInternalAccount,
} from '../payments/transactions/payment-accounts.js';
import { PaymentProcess } from '../payments/transactions/payment-process.js';
import { transferAmount } from '#domain/payments/transfers/transfer-amount.js';
import {
  TransferInCommand,
  TransferOutCommand,
  availableBalance,
  type PlatformTransferInput,
  type TransferInput,
} from '../payments/transfers/transfer-commands.js';
import { loadOwnAgent, type AgentPrincipal } from './agent-access.js';
import { agentAccounts, internalDestinationOf, quoteEnds, type AccountEnd } from './agent-accounts.js';
import { effectId } from '../idempotency/effect-ids.js';

/** How long a reserved spend may stay unsettled before the next decision settles it (its process died mid-way). */
export const STALE_RESERVATION_MS = 10 * 60_000;
const INTERRUPTED = 'EXECUTION_INTERRUPTED';

/** The quote an EXECUTE_QUOTE action executes (its request carried one; the decider refuses one without). */
function quoteIdOf(action: AgentActionSnapshot): string {
  const id = action.quote?.id;
  if (typeof id !== 'string') throw new Error(`agent action ${action.id} carries no quote`);
  return id;
}

/** A transfer action's transaction id is fixed by the action, so it can be found after a crash. */
const transferTransactionId = (actionId: string) => publicId('Transaction', uuidOf('AgentAction', actionId)!);

/**
 * Agent actions: every spend is decided on the agent's stream (policy, usage and reservations)
 * before any money moves, then executed with the same transfer and quote machinery platforms
 * use, then committed to usage; a failed execution releases the reservation. Actions that need
 * approval wait, without a transaction, until the platform approves (decided again then) or rejects.
 */
@Injectable()
export class AgentActions {
  constructor(
    private readonly ctx: CommandContext,
    private readonly commands: CommandBus,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    @Inject(PLATFORM_DECISIONS) private readonly decisions: PlatformDecisions,
  ) {}

  private async now(platformId: string): Promise<string> {
    return (await this.ctx.now(platformId)).toISOString();
  }

  private async decide(agentId: string, command: AgentCommand, actor: Actor): Promise<AgentState> {
    return (await this.ctx.runner.run(agentStream(agentId), agentDecider, command, { metadata: { ...actor } })).state;
  }

  /** The accounts a request names, each the agent's customer's (see `agentAccounts`). */
  ownAccounts(agent: AgentPrincipal, ends: AccountEnd[], state?: ExistingAgent) {
    return agentAccounts({ runner: this.ctx.runner, readModels: this.readModels }, agent, ends, state);
  }

  async transfer(
    agent: AgentPrincipal,
    direction: 'IN' | 'OUT',
    input: PlatformTransferInput,
  ): Promise<Record<string, unknown>> {
    const internalId = direction === 'OUT' ? input.source.accountId : input.destination.accountId;
    const externalId = direction === 'OUT' ? input.destination.accountId : input.source.accountId;
    const field = direction === 'OUT' ? 'source.accountId' : 'destination.accountId';
    const externalField = direction === 'OUT' ? 'destination.accountId' : 'source.accountId';
    const [internal] = (await this.ownAccounts(agent, [
      { accountId: internalId, field },
      { accountId: externalId, field: externalField },
    ])) as [OwnedInternalAccount, LiveExternalAccount];
    // Refused before the policy reserves anything (the transfer itself checks again).
    await requireSupportedCurrencies(this.ctx.runner, agent.platformId, [{ code: internal.currency, field }]);
    // Without an amount a transfer-out sends the whole available balance: the policy judges that amount.
    const balance = direction === 'OUT' ? await availableBalance(this.ctx.runner, agent.platformId, internal.id) : 0n;
    const amount = Number(transferAmount(direction, input.amount, balance));
    const request: ActionRequest = {
      actionId: publicId('AgentAction', effectId(agent.actor, this.ctx.ids)),
      type: direction === 'OUT' ? 'TRANSFER_OUT' : 'TRANSFER_IN',
      spend: {
        permission: 'CREATE_TRANSFERS',
        accountId: internal.id,
        amount: String(amount),
        currency: internal.currency,
      },
      transferDetails: {
        amount,
        currency: internal.currency,
        sourceAccountId: input.source.accountId,
        destinationAccountId: input.destination.accountId,
      },
    };
    const action = await this.request(agent, request);
    if (action.status === 'PENDING_APPROVAL') return this.askPlatform(agent, action);
    if (action.status !== 'APPROVED') return toAgentActionResource(action);
    return toAgentActionResource(await this.execute(action, agent.actor, { rethrow: true }));
  }

  /**
   * An action that needs approval goes to the platform's decision endpoint first: its APPROVE approves it as a person
   * would, its REJECT rejects it with the reason; otherwise (the default WAIT, no endpoint) it waits.
   */
  private async askPlatform(agent: AgentPrincipal, action: AgentActionSnapshot): Promise<Record<string, unknown>> {
    const verdict = await askPlatformAboutAction(this.decisions, this.ctx.ids, action, agent.actor);
    if (!verdict) return toAgentActionResource(action);
    const { actor, decision } = verdict;
    if (verdict.approve) return this.approve(agent.agentId, action.id, actor, decision);
    return this.reject(agent.agentId, action.id, verdict.reason, actor, decision);
  }

  /**
   * Creates a quote for the agent's customer (CREATE_QUOTES); `immediatelyExecute` goes through the policy as an
   * execute. A REALTIME_FUNDING quote is paid by the customer from outside (its paymentInstructions): no balance
   * the agent controls is spent, and it starts when the funds arrive.
   */
  async createQuote(agent: AgentPrincipal, request: PlatformQuoteRequest): Promise<Record<string, unknown>> {
    if (request.source.sourceType === 'REALTIME_FUNDING') return this.createRealtimeQuote(agent, request);
    const state = await loadOwnAgent(this.ctx.runner, agent.agentId, agent.platformId);
    const ends = quoteEnds(request.source, request.destination);
    const [source] = await this.ownAccounts(agent, ends, state);
    const internalDestination = internalDestinationOf(request.destination);
    authorizeOperation(state, 'CREATE_QUOTES', source.id, internalDestination);
    if (request.immediatelyExecute) authorizeOperation(state, 'EXECUTE_QUOTES', source.id, internalDestination);
    const own: PlatformQuoteRequest = {
      ...request,
      source: { ...request.source, customerId: agent.customerId },
      immediatelyExecute: false,
      agentId: agent.agentId,
    };
    const quote = (await this.commands.execute(new CreateQuoteCommand(own, agent.actor))) as { id: string };
    if (!request.immediatelyExecute) return quote;
    await this.executeQuote(agent, quote.id, {});
    const executed = await loadOwnQuote(this.ctx.runner, quote.id, agent.platformId);
    return toQuoteResource(executed.quote, executed.transaction.status);
  }

  private async createRealtimeQuote(agent: AgentPrincipal, request: PlatformQuoteRequest) {
    const state = await loadOwnAgent(this.ctx.runner, agent.agentId, agent.platformId);
    const { customerId } = request.source;
    if (customerId !== undefined && customerId !== agent.customerId) throw notFound('CUSTOMER', customerId);
    await this.ownAccounts(agent, quoteEnds(request.source, request.destination), state);
    const internalDestination = internalDestinationOf(request.destination);
    authorizeOperation(state, 'CREATE_QUOTES', internalDestination);
    if (request.immediatelyExecute) authorizeOperation(state, 'EXECUTE_QUOTES', internalDestination);
    const own: PlatformQuoteRequest = {
      ...request,
      source: { ...request.source, customerId: agent.customerId },
      agentId: agent.agentId,
    };
    return (await this.commands.execute(new CreateQuoteCommand(own, agent.actor))) as Record<string, unknown>;
  }

  /** A quote this agent created (404 for any other, including another agent's of the same customer). */
  async ownQuote(agent: AgentPrincipal, quoteId: string) {
    const state = await loadOwnQuote(this.ctx.runner, quoteId, agent.platformId);
    if (state.quote.agentId !== agent.agentId) throw notFound('QUOTE', quoteId);
    return state;
  }

  async executeQuote(agent: AgentPrincipal, quoteId: string, wallet: { signature?: string; requestId?: string }) {
    const state = await this.ownQuote(agent, quoteId);
    const { quote, transaction } = state;
    // Checked when the quote was created, and again: the same rule holds on every agent path.
    await this.ownAccounts(agent, quoteEnds(quote.source, quote.destination));
    const internalDestination = internalDestinationOf(quote.destination);
    // The wallet's owner signs before anything is decided, exactly as for platforms.
    const deps = { process: this.process, runner: this.ctx.runner, clocks: this.ctx.clocks };
    await authorizeExecution(deps, state, { actor: agent.actor, wallet });
    const action = await this.request(agent, {
      actionId: publicId('AgentAction', effectId(agent.actor, this.ctx.ids)),
      type: 'EXECUTE_QUOTE',
      spend: {
        permission: 'EXECUTE_QUOTES',
        accountId: quote.source.accountId,
        ...(internalDestination ? { otherAccountId: internalDestination } : {}),
        amount: quote.totalSendingAmount,
        currency: quote.sendingCurrency,
      },
      quote: toQuoteResource(quote, transaction.status),
    });
    if (action.status === 'PENDING_APPROVAL') return this.askPlatform(agent, action);
    if (action.status !== 'APPROVED') return toAgentActionResource(action);
    return toAgentActionResource(await this.execute(action, agent.actor, { rethrow: true }));
  }

  private async request(agent: AgentPrincipal, request: ActionRequest): Promise<AgentActionSnapshot> {
    await this.settleStale(agent.agentId, agent.actor);
    const now = await this.now(agent.platformId);
    const state = await this.decide(agent.agentId, { type: 'RequestAction', request, now }, agent.actor);
    return requireAction(state, request.actionId);
  }

  /**
   * Moves the money of a reserved (APPROVED) action and commits the spend; a failure releases
   * the reservation and ends the action FAILED (the agent's own request then hears the error).
   */
  private async execute(
    action: AgentActionSnapshot,
    actor: Actor,
    options: { rethrow: boolean },
  ): Promise<AgentActionSnapshot> {
    let transaction: Record<string, unknown>;
    try {
      transaction = await this.moveMoney(action, actor);
    } catch (error) {
      const reason = error instanceof DomainError ? error.code : 'EXECUTION_FAILED';
      const now = await this.now(actor.platformId);
      const state = await this.decide(action.agentId, { type: 'FailAction', actionId: action.id, reason, now }, actor);
      if (options.rethrow) throw error;
      return requireAction(state, action.id);
    }
    const now = await this.now(actor.platformId);
    const state = await this.decide(
      action.agentId,
      { type: 'CompleteAction', actionId: action.id, transaction, now },
      actor,
    );
    return requireAction(state, action.id);
  }

  private async moveMoney(action: AgentActionSnapshot, actor: Actor): Promise<Record<string, unknown>> {
    if (action.type === 'EXECUTE_QUOTE') {
      const quoteId = quoteIdOf(action);
      const { quote, transaction } = await loadOwnQuote(this.ctx.runner, quoteId, actor.platformId);
      const metadata = { ...actor };
      await requireExecutable(this.process, { quote, transaction }, await this.ctx.now(actor.platformId), metadata);
      await requireLiveAccounts(this.ctx.runner, this.readModels, quote);
      return toTransactionResource(await startQuote(this.process, quote, metadata));
    }
    const d = action.transferDetails!;
    const input: TransferInput = {
      source: { accountId: d.sourceAccountId },
      destination: { accountId: d.destinationAccountId },
      amount: d.amount,
      agentId: action.agentId,
      transactionId: transferTransactionId(action.id),
    };
    const command =
      action.type === 'TRANSFER_OUT' ? new TransferOutCommand(input, actor) : new TransferInCommand(input, actor);
    return this.commands.execute(command);
  }

  /**
   * The platform approves: the action is decided again on the latest policy, usage and balances
   * and ends APPROVED with its transaction, or FAILED (quote expired, funds short, limits now
   * exceeded, agent paused). 409 unless it is PENDING_APPROVAL.
   */
  async approve(
    agentId: string,
    actionId: string,
    actor: Actor,
    decision?: AgentActionDecision,
  ): Promise<Record<string, unknown>> {
    const state = await loadOwnAgent(this.ctx.runner, agentId, actor.platformId);
    const action = state.actions.get(actionId);
    if (!action) throw notFound('AGENT_ACTION', actionId);
    if (action.status !== 'PENDING_APPROVAL') {
      throw conflict(
        'INVALID_STATE_TRANSITION',
        `action ${actionId} is ${action.status}; only a PENDING_APPROVAL action can be approved`,
      );
    }
    await this.settleStale(agentId, actor);
    const failure = action.type === 'EXECUTE_QUOTE' ? await this.quoteFailure(quoteIdOf(action), actor) : undefined;
    const now = await this.now(actor.platformId);
    const decided = await this.decide(
      agentId,
      { type: 'ApproveAction', actionId, now, ...(failure ? { failure } : {}), ...(decision ? { decision } : {}) },
      actor,
    );
    const approved = requireAction(decided, actionId);
    if (approved.status !== 'APPROVED') return toAgentActionResource(approved);
    return toAgentActionResource(await this.execute(approved, actor, { rethrow: false }));
  }

  /** Why a waiting quote can no longer execute, if it cannot (an expired one is expired on the spot). */
  private async quoteFailure(quoteId: string, actor: Actor): Promise<string | undefined> {
    const { quote, transaction } = await loadOwnQuote(this.ctx.runner, quoteId, actor.platformId);
    if (transaction.status === 'EXPIRED') return 'QUOTE_EXPIRED';
    if (transaction.status !== 'PENDING') return 'QUOTE_NOT_PENDING';
    if (isQuoteExpired(quote as QuoteRecord, await this.ctx.now(actor.platformId))) {
      await this.process.expire(quoteRef(quote.id), { ...actor });
      return 'QUOTE_EXPIRED';
    }
    return undefined;
  }

  /**
   * Settles reservations left by a process that died between reserving a spend and settling it:
   * a payment that started (or a transfer that its recovery job will start) counts as executed,
   * anything else is released and its action ends FAILED (EXECUTION_INTERRUPTED).
   */
  private async settleStale(agentId: string, actor: Actor): Promise<void> {
    const { state } = await this.ctx.runner.load(agentStream(agentId), agentDecider);
    if (state.reservations.size === 0) return;
    const now = await this.ctx.now(actor.platformId);
    const stale = [...state.reservations.keys()]
      .map((id) => requireAction(state, id))
      .filter((action) => now.getTime() - Date.parse(action.updatedAt) >= STALE_RESERVATION_MS);
    for (const action of stale) {
      const tx = await this.transactionOf(action);
      // A created transfer is started by its recovery job; a quote still PENDING (or EXPIRED) never started.
      const quoteIdle = action.type === 'EXECUTE_QUOTE' && (tx?.status === 'PENDING' || tx?.status === 'EXPIRED');
      const started = tx !== undefined && !quoteIdle;
      const refused = tx?.status === 'FAILED' && tx.failureDetail === 'INSUFFICIENT_FUNDS';
      const at = now.toISOString();
      const command: AgentCommand =
        started && !refused
          ? { type: 'CompleteAction', actionId: action.id, transaction: toTransactionResource(tx), now: at }
          : { type: 'FailAction', actionId: action.id, reason: refused ? 'INSUFFICIENT_FUNDS' : INTERRUPTED, now: at };
      await this.decide(agentId, command, actor);
    }
  }

  private async transactionOf(action: AgentActionSnapshot): Promise<TransactionRecord | undefined> {
    if (action.type === 'EXECUTE_QUOTE') {
      return (await this.ctx.runner.load(streams.quote(quoteIdOf(action)), quoteDecider)).state.transaction;
    }
    return (await this.ctx.runner.load(streams.transaction(transferTransactionId(action.id)), transactionDecider)).state
      .transaction;
  }

  async reject(
    agentId: string,
    actionId: string,
    reason: string | undefined,
    actor: Actor,
    decision?: AgentActionDecision,
  ): Promise<Record<string, unknown>> {
    await loadOwnAgent(this.ctx.runner, agentId, actor.platformId);
    const now = await this.now(actor.platformId);
    const by = decision ? { decision } : {};
    const state = await this.decide(
      agentId,
      { type: 'RejectAction', actionId, ...(reason !== undefined ? { reason } : {}), ...by, now },
      actor,
    );
    return toAgentActionResource(requireAction(state, actionId));
  }
}
