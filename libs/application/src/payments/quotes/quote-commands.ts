import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { verifyStamp } from '#crypto/stamp.js';
import { DomainError, conflict, notFound } from '#domain/errors.js';
import { isPublicId, streams } from '#domain/primitives.js';
import {
  isQuoteExpired,
  quoteDecider,
  quoteStatusOf,
  toQuoteResource,
  type QuoteRecord,
  type QuoteState,
} from '#domain/payments/quotes/quote.js';
import type { PaymentRef } from '#domain/payments/transactions/payment-plan.js';
import type { FundingOriginator } from '#domain/payments/rails/funding-originator.js';
import { requireTransactionRecord } from '#domain/payments/transactions/transaction.js';
import { parsePayloadToSign, requireActiveSigningSession } from '#domain/wallet/signed-retry.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext, PlatformClocks } from '../../command-context.js';
import { CommandRunner } from '../../command-runner.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { requireLiveAccounts } from '../transactions/payment-accounts.js';
import { PaymentProcess } from '../transactions/payment-process.js';
import { QuoteBuilder, type PlatformQuoteRequest } from './quote-builder.js';
import { walletState } from '../../wallet/wallet-accounts.js';

export class CreateQuoteCommand {
  constructor(
    readonly request: PlatformQuoteRequest,
    readonly actor: Actor,
  ) {}
}

export class ExecuteQuoteCommand {
  constructor(
    readonly quoteId: string,
    readonly actor: Actor,
    readonly wallet: { signature?: string; requestId?: string } = {},
  ) {}
}

export const quoteRef = (quoteId: string): PaymentRef => ({ kind: 'quote', id: quoteId });

/** A quote of this platform with its transaction; 404 otherwise. */
export async function loadOwnQuote(
  runner: CommandRunner,
  quoteId: string,
  platformId: string,
): Promise<Required<QuoteState>> {
  if (!isPublicId('Quote', quoteId)) throw notFound('QUOTE', quoteId);
  const { state } = await runner.load(streams.quote(quoteId), quoteDecider);
  if (!state.quote || !state.transaction || state.quote.platformId !== platformId) throw notFound('QUOTE', quoteId);
  return state as Required<QuoteState>;
}

export const quoteExpiredError = (quote: QuoteRecord) =>
  new DomainError(
    'conflict',
    'QUOTE_EXPIRED',
    `quote ${quote.id} expired at ${quote.expiresAt} and cannot be executed`,
  );

/**
 * Checks that a quote can start now. A quote past expiresAt is expired on the spot (no money
 * moves) and the caller gets 409 QUOTE_EXPIRED.
 */
export async function requireExecutable(
  process: PaymentProcess,
  state: Required<QuoteState>,
  now: Date,
  metadata: EventMetadata,
): Promise<void> {
  const { quote, transaction } = state;
  if (transaction.status === 'EXPIRED') throw quoteExpiredError(quote);
  if (transaction.status !== 'PENDING')
    throw conflict(
      'INVALID_STATE_TRANSITION',
      `quote ${quote.id} is ${quoteStatusOf(transaction.status)} and cannot be executed again`,
    );
  if (isQuoteExpired(quote, now)) {
    await process.expire(quoteRef(quote.id), metadata);
    throw quoteExpiredError(quote);
  }
}

function storedPayloadToSign(quote: QuoteRecord): string | undefined {
  const info = quote.paymentInstructions?.[0]?.accountOrWalletInfo as
    { accountType?: string; payloadToSign?: string } | undefined;
  return info?.accountType === 'EMBEDDED_WALLET' ? info.payloadToSign : undefined;
}

const refuse = (code: string, reason: string) =>
  new DomainError('unauthorized', code, 'wallet authentication failed', { reason });

/**
 * The single place where executing a quote from an EMBEDDED_WALLET is authorized: the stamp (`signature`, the
 * `Service-Wallet-Signature` header) must verify over the quote's stored payloadToSign, `requestId` (the `Request-Id`
 * header), when given, must be the payload's, and the wallet must hold the key as an active signing session (the
 * wallet's rule, `requireActiveSigningSession`). The quote itself is single use (it leaves PENDING on execution), so
 * the payload's requestId cannot be replayed into a second payment.
 */
async function authorizeEmbeddedWalletExecution(
  runner: CommandRunner,
  quote: QuoteRecord,
  wallet: { signature?: string; requestId?: string },
  now: Date,
): Promise<void> {
  const { signature, requestId } = wallet;
  if (!signature) {
    throw refuse(
      'WALLET_SIGNATURE_MISSING',
      'executing a quote from an embedded wallet needs a Service-Wallet-Signature stamp over the quote’s payloadToSign',
    );
  }
  const payload = storedPayloadToSign(quote);
  if (!payload) throw refuse('WALLET_SIGNATURE_INVALID', 'the quote has no payloadToSign');
  if (requestId !== undefined && requestId !== parsePayloadToSign(payload).requestId) {
    throw refuse('UNAUTHORIZED', 'Request-Id is not the requestId of the quote’s payloadToSign');
  }
  const verified = verifyStamp(signature, payload);
  if (!verified.ok) throw refuse(verified.code, verified.reason);
  const state = await walletState(runner, quote.source.accountId);
  requireActiveSigningSession(state, verified.publicKey, now.toISOString());
}

/**
 * Checks, before anything is decided, that a quote may be executed on request: it can start now (see
 * requireExecutable), it is not one that paying its paymentInstructions starts (409; `hint` tells how it starts), and
 * the owner of an EMBEDDED_WALLET source signed it.
 */
export async function authorizeExecution(
  deps: { process: PaymentProcess; runner: CommandRunner; clocks: PlatformClocks },
  state: Required<QuoteState>,
  request: { actor: Actor; wallet: { signature?: string; requestId?: string }; hint?: string },
): Promise<void> {
  const { quote } = state;
  const now = await deps.clocks.now(request.actor.platformId);
  await requireExecutable(deps.process, state, now, { ...request.actor });
  if (quote.funding === 'EXTERNAL') {
    const how = `this quote starts when its paymentInstructions are paid${request.hint ? ` (${request.hint})` : ''}`;
    throw conflict('QUOTE_FUNDED_EXTERNALLY', `${how}, not by execute`);
  }
  if (quote.funding === 'EMBEDDED_WALLET')
    await authorizeEmbeddedWalletExecution(deps.runner, quote, request.wallet, now);
}

/** Starts a quote's payment; a start that loses the race with expiry also expires the quote. */
export async function startQuote(
  process: PaymentProcess,
  quote: QuoteRecord,
  metadata: EventMetadata,
  originator?: FundingOriginator,
) {
  try {
    const guard = { from: ['PENDING'] as const, notAfter: quote.expiresAt, originator };
    return await process.start(quoteRef(quote.id), guard, metadata);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'QUOTE_EXPIRED')
      await process.expire(quoteRef(quote.id), metadata);
    throw error;
  }
}

/** Creates a quote (rate and fees locked until expiresAt) and schedules its expiry; optionally executes it at once. */
@CommandHandler(CreateQuoteCommand)
export class CreateQuoteHandler implements ICommandHandler<CreateQuoteCommand, Record<string, unknown>> {
  private readonly builder: QuoteBuilder;

  constructor(
    private readonly ctx: CommandContext,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) readModels: ReadModelStore,
  ) {
    this.builder = new QuoteBuilder(ctx.runner, readModels, ctx.ids);
  }

  async execute({ request, actor }: CreateQuoteCommand) {
    const now = await this.ctx.now(actor.platformId);
    const facts = await this.builder.facts(request, actor, now);
    const metadata = { ...actor };
    // A real-time funded quote starts when its funds arrive (sandbox: POST /sandbox/send), even with
    // immediatelyExecute.
    const executeNow = request.immediatelyExecute === true && facts.source.funding !== 'EXTERNAL';
    const created = await this.ctx.runner.run(
      streams.quote(facts.ids.quoteId),
      quoteDecider,
      { type: 'CreateQuote', request, facts, now: now.toISOString() },
      { metadata, answersAfter: 'append' },
    );
    const quote = created.state.quote!;
    // The deadline is enqueued while the read models take the quote in (an answer waits for both); a quote executed
    // at once waits for them at the end of its execution instead.
    const readable =
      executeNow || created.position === undefined ? undefined : this.ctx.runner.projected(created.position);
    await Promise.all([
      this.process.schedule(
        { kind: 'QUOTE_DEADLINE', platformId: actor.platformId, quoteId: quote.id },
        Date.parse(quote.expiresAt) - now.getTime(),
      ),
      readable,
    ]);
    if (!executeNow) return toQuoteResource(quote, requireTransactionRecord(created.state).status);
    const started = await startQuote(this.process, quote, metadata);
    return toQuoteResource(quote, started.status);
  }
}

/** Executes a quote funded from an internal account or an embedded wallet (signed). */
@CommandHandler(ExecuteQuoteCommand)
export class ExecuteQuoteHandler implements ICommandHandler<ExecuteQuoteCommand, Record<string, unknown>> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly process: PaymentProcess,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ quoteId, actor, wallet }: ExecuteQuoteCommand) {
    const state = await loadOwnQuote(this.ctx.runner, quoteId, actor.platformId);
    const { quote } = state;
    const deps = { process: this.process, runner: this.ctx.runner, clocks: this.ctx.clocks };
    await authorizeExecution(deps, state, { actor, wallet, hint: 'sandbox: POST /sandbox/send' });
    await requireLiveAccounts(this.ctx.runner, this.readModels, quote);
    const started = await startQuote(this.process, quote, { ...actor });
    return toQuoteResource(quote, started.status);
  }
}
