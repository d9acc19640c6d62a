import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { cardDecider, requireCard, requireCardChanges, toCardResource, type CardResource } from '#domain/cards/card.js';
import { generatedPlatformCardId } from '#domain/cards/card-issuer.js';
import type { SpendingControls } from '#domain/cards/card-spending.js';
import type {
  CardAggregate,
  CardCommand,
  ExistingCard,
  HolderAccount,
  RequestedCardState,
} from '#domain/cards/card-types.js';
import { platformCardIdKey } from '#domain/claims/claim.js';
import { customerDecider } from '#domain/customers/customer.js';
import { notFound } from '#domain/errors.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { JobQueue } from '#jobs/job-queue.js';
import { CommandContext } from '../command-context.js';
import { IdentityClaims } from '../claims/identity-claims.js';
import { CommandRunner, type Reads } from '../command-runner.js';
import { KeyedLock } from '../command-runner-policy.js';
import { customerStream } from '../customers/customer-commands.js';
import { JOB_QUEUE, type Actor } from '../tokens.js';
import { CardLedger } from './card-ledger.js';
import { scheduleIssuance } from './card-jobs.js';
import {
  signedStepOf,
  SignedRetryService,
  type SignedRequest,
  type SignedResult,
  type SignedStep,
} from '../wallet/signed-retry.service.js';
import { WalletAccounts } from '../wallet/wallet-accounts.js';
import { effectId } from '../idempotency/effect-ids.js';

export interface CardChanges {
  state?: RequestedCardState;
  fundingSources?: string[];
  /** Replaces the card's own spending controls; null removes them. */
  spendingControls?: SpendingControls | null;
}

/**
 * Serializes the multi-step money flows of one card inside this process (authorization, clearing,
 * return, close): each reads the card, moves money in the ledger stream, then records the outcome
 * in the card stream, and two of them interleaving on one card could act on a stale view. This only
 * saves conflicts inside one process: across processes a clearing is reserved on the card stream
 * (expected revision) before its ledger legs, which carry ids derived from the authorization.
 */
@Injectable()
export class CardLocks extends KeyedLock {}

export class CreateCardCommand {
  constructor(
    readonly input: {
      customerId: string;
      platformCardId?: string;
      form: 'VIRTUAL';
      fundingSources: string[];
      spendingControls?: SpendingControls | null;
    },
    readonly actor: Actor,
  ) {}
}

/** A PATCH of a card: a signed retry stamped by a session of the card's owning wallet account. */
export class UpdateCardCommand {
  constructor(
    readonly cardId: string,
    readonly changes: CardChanges,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}

/** What a card's creation fixed (its platform, holder and wallet): a card this process has seen is not read again. */
export const cardCreationFacts: Reads<CardAggregate> = {
  reads: 'fixed-facts',
  known: (seen) => seen.exists && seen.card !== undefined,
};

/**
 * The card stream for an id of the caller's platform, or a 404 that does not reveal other platforms' cards, read as
 * `reads` declares (the current card by default; `cardCreationFacts` for a caller that needs only those).
 */
export async function loadOwnCard(
  runner: CommandRunner,
  cardId: string,
  actor: Actor,
  reads: Reads<CardAggregate> = {},
): Promise<ExistingCard> {
  if (!uuidOf('Card', cardId)) throw notFound('CARD', cardId);
  const { state } = await runner.load(streams.card(cardId), cardDecider, reads);
  if (!state.exists || state.platformId !== actor.platformId) throw notFound('CARD', cardId);
  return state;
}

/** The holder's accounts from the customer stream (the source of truth for ownership, currency and status). */
export async function holderAccounts(runner: CommandRunner, customerId: string): Promise<HolderAccount[]> {
  const { state } = await runner.load(customerStream(customerId), customerDecider);
  return [...state.accounts.values()].map(({ id, type, currency, status }) => ({ id, type, currency, status }));
}

/**
 * Names the wallet account whose session must sign a PATCH. For step 1 it also checks the PATCH
 * against the card as it is now, without changing anything: a request that would be refused is
 * refused before a challenge is issued. Step 2 (`signed`) does not: its requestId is checked
 * first (a spent one is 401 whatever the card's state), and the card decides again on its
 * then-current state when the change is appended.
 */
export async function prepareCardUpdate(
  runner: CommandRunner,
  cardId: string,
  changes: CardChanges,
  actor: Actor,
  now: string,
  step: SignedStep,
): Promise<{ walletAccountId: string }> {
  // Step 2 needs only what the card's creation fixed (its platform and wallet): the change is decided on the stream as
  // it is when it is applied.
  if (step === 'signed-retry')
    return { walletAccountId: (await loadOwnCard(runner, cardId, actor, cardCreationFacts)).walletAccountId };
  const state = await loadOwnCard(runner, cardId, actor);
  const accounts = changes.fundingSources ? await holderAccounts(runner, state.card.customerId) : [];
  cardDecider.decide({ type: 'UpdateCard', ...changes, holderAccounts: accounts, now }, state);
  return { walletAccountId: state.walletAccountId };
}

@CommandHandler(CreateCardCommand)
export class CreateCardHandler implements ICommandHandler<CreateCardCommand, CardResource> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly claims: IdentityClaims,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {}

  async execute({ input, actor }: CreateCardCommand): Promise<CardResource> {
    const { state: platform } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
    const { state: holder } = await this.ctx.runner.load(customerStream(input.customerId), customerDecider);
    if (!holder.exists || holder.isDeleted || holder.platformId !== actor.platformId)
      throw notFound('CUSTOMER', input.customerId);
    const cardId = publicId('Card', effectId(actor, this.ctx.ids));
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const command: CardCommand = {
      type: 'CreateCard',
      cardId,
      platformId: actor.platformId,
      customerId: input.customerId,
      platformCardId: input.platformCardId ?? generatedPlatformCardId(() => effectId(actor, this.ctx.ids)),
      holderKycStatus: holder.kycStatus,
      holderAccounts: [...holder.accounts.values()].map(({ id, type, currency, status }) => ({
        id,
        type,
        currency,
        status,
      })),
      fundingSources: input.fundingSources,
      // Everything the issuer returns derives from this secret seed (see card-issuer.ts).
      issuanceSeed: `${this.ctx.ids.uuid()}${this.ctx.ids.uuid()}`,
      sandbox: platform.sandbox === true,
      ...(input.spendingControls ? { spendingControls: input.spendingControls } : {}),
      now,
    };
    // platformCardId is unique per platform (a generated one too, so it can never be given later).
    const owner = { id: cardId, stream: streams.card(cardId) };
    const { state } = await this.claims.holding(
      [platformCardIdKey(actor.platformId, command.platformCardId)],
      owner,
      actor,
      () => this.ctx.runner.run(owner.stream, cardDecider, command, { metadata: { ...actor } }),
    );
    const { card } = requireCard(state);
    if (card.state === 'PENDING_ISSUE') await scheduleIssuance(this.jobs, cardId, actor.platformId, now);
    return toCardResource(card);
  }
}

/**
 * Step 1 checks the PATCH against the card and answers the challenge; step 2 consumes the
 * requestId in the wallet stream (recording the change it authorizes), then appends the change
 * with that requestId to the card stream, so it applies at most once (see SignedRetryService.consume).
 */
@CommandHandler(UpdateCardCommand)
export class UpdateCardHandler implements ICommandHandler<UpdateCardCommand, SignedResult<CardResource>> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly locks: CardLocks,
    private readonly signedRetry: SignedRetryService,
    private readonly wallets: WalletAccounts,
  ) {}

  async execute({ cardId, changes, signed, actor }: UpdateCardCommand): Promise<SignedResult<CardResource>> {
    requireCardChanges(changes);
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const { walletAccountId } = await prepareCardUpdate(
      this.ctx.runner,
      cardId,
      changes,
      actor,
      now,
      signedStepOf(signed),
    );
    await this.wallets.assertOwned(walletAccountId, actor);
    const step = await this.signedRetry.step(walletAccountId, { intent: 'EXTERNAL', targetId: cardId }, signed, actor);
    if (step.kind === 'challenge') return step;
    const authorizes = { stream: streams.card(cardId), change: { ...changes } };
    const consumed = await this.signedRetry.consume(walletAccountId, cardId, step.proof, authorizes, actor);
    return { kind: 'done', result: await this.apply(cardId, changes, actor, consumed.sessionId, consumed.requestId) };
  }

  private apply(
    cardId: string,
    changes: CardChanges,
    actor: Actor,
    walletSessionId: string,
    requestId: string,
  ): Promise<CardResource> {
    const metadata = { ...actor, walletSessionId };
    return this.locks.run(cardId, async () => {
      // What the card's creation fixed (its platform and holder) is all this needs: the change is decided on the card
      // as the append finds it (an append at a revision another process passed is decided again on the stream).
      const current = await loadOwnCard(this.ctx.runner, cardId, actor, cardCreationFacts);
      const accounts = changes.fundingSources ? await holderAccounts(this.ctx.runner, current.card.customerId) : [];
      const result = await this.ctx.runner.run(
        streams.card(cardId),
        cardDecider,
        {
          type: 'UpdateCard',
          ...changes,
          holderAccounts: accounts,
          requestId,
          now: (await this.ctx.now(actor.platformId)).toISOString(),
        },
        { metadata },
      );
      // Closing reversed the open authorizations in the card stream; now release their holds.
      if (result.events.some((e) => e.type === 'CardAuthorizationReversed')) {
        const ledger = await CardLedger.forPlatform(
          this.ctx.runner,
          this.ctx.clocks,
          this.ctx.ids,
          actor.platformId,
          metadata,
        );
        await ledger.releaseReversed(result.events);
        if (ledger.lastPosition !== undefined) await this.ctx.runner.projected(ledger.lastPosition);
      }
      return toCardResource(requireCard(result.state).card);
    });
  }
}
