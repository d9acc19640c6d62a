import type { CardEvent } from '#domain/cards/card-types.js';
import { holdTransferIds } from '#domain/cards/card-holds.js';
import type { Clock } from '#domain/clock.js';
import { publicId, streams, type IdGenerator } from '#domain/primitives.js';
import { ledgerDecider, type LedgerAccountSpec } from '#domain/ledger/ledger.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { CommandRunner } from '../command-runner.js';
import { settlementAccountOf } from '../platforms/platform-config.js';

/** Ledger transfer codes of card money movements. */
export const CardTransferCode = {
  hold: 'CARD_AUTHORIZATION',
  overAuthorization: 'CARD_CLEARING_OVER_AUTHORIZATION',
  latePresentment: 'CARD_LATE_PRESENTMENT',
  return: 'CARD_RETURN',
} as const;

/**
 * Card money in the platform's ledger: the card's funding account on one side, the platform's
 * settlement account of the currency (money leaving to or coming from the card network) on the
 * other. Every call is one balanced ledger command.
 */
export class CardLedger {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly platformId: string,
    private readonly metadata: EventMetadata,
  ) {}

  /** A card ledger of `platformId` on that platform's clock. */
  static async forPlatform(
    runner: CommandRunner,
    clocks: { forPlatform(platformId: string): Promise<Clock> },
    ids: IdGenerator,
    platformId: string,
    metadata: EventMetadata,
  ): Promise<CardLedger> {
    return new CardLedger(runner, await clocks.forPlatform(platformId), ids, platformId, metadata);
  }

  /** Voids the holds of the authorizations that `events` reversed (closing a card reverses its open ones). */
  async releaseReversed(events: readonly CardEvent[]): Promise<void> {
    for (const event of events) {
      // Every hold of the authorization: the first and those its incremental authorizations added.
      const holds = event.type === 'CardAuthorizationReversed' ? holdTransferIds(event.data.authorization) : [];
      for (const hold of holds) if (await this.isHeld(hold)) await this.void(hold);
    }
  }

  /** Global position of the last ledger change made here, for read-your-writes. */
  lastPosition?: bigint;

  private newId = () => publicId('Transfer', this.ids.uuid());
  private now = () => this.clock.now().toISOString();
  private stream = () => streams.ledger(this.platformId);

  async settlement(currency: string): Promise<LedgerAccountSpec> {
    return { id: await settlementAccountOf(this.runner, this.platformId, currency), currency, allowNegative: true };
  }

  /**
   * A posted (`pending: false`) or pending transfer; throws INSUFFICIENT_FUNDS when the customer side
   * cannot pay. With a given `id` it is idempotent: the same transfer again changes nothing.
   */
  async transfer(
    input: {
      debit: LedgerAccountSpec;
      credit: LedgerAccountSpec;
      amount: bigint;
      pending: boolean;
      code: string;
      reference: string;
    },
    id = this.newId(),
  ): Promise<string> {
    this.track(
      await this.runner.run(
        this.stream(),
        ledgerDecider,
        { type: 'CreateTransfer', id, ...input, now: this.now() },
        { metadata: this.metadata, answersAfter: 'append' },
      ),
    );
    return id;
  }

  /** Posts a hold (partially: the rest is released); with a given `id`, posting it again is a no-op. */
  async post(pendingId: string, amount: bigint, id = this.newId()): Promise<string> {
    this.track(
      await this.runner.run(
        this.stream(),
        ledgerDecider,
        { type: 'PostPendingTransfer', id, pendingId, amount, now: this.now() },
        { metadata: this.metadata, answersAfter: 'append' },
      ),
    );
    return id;
  }

  async void(pendingId: string): Promise<string> {
    const id = this.newId();
    this.track(
      await this.runner.run(
        this.stream(),
        ledgerDecider,
        { type: 'VoidPendingTransfer', id, pendingId, now: this.now() },
        { metadata: this.metadata, answersAfter: 'append' },
      ),
    );
    return id;
  }

  private track(result: { position?: bigint }): void {
    if (result.position !== undefined) this.lastPosition = result.position;
  }

  /** Holds still pending (neither posted nor voided) that were placed for `reference`. */
  async openHoldsFor(reference: string): Promise<string[]> {
    const { state } = await this.runner.load(this.stream(), ledgerDecider);
    return [...state.transfers.values()]
      .filter((t) => t.reference === reference && t.pending && t.resolution === undefined)
      .map((t) => t.id);
  }

  /** Whether a hold is still pending (neither posted nor voided). */
  async isHeld(pendingId: string): Promise<boolean> {
    const { state } = await this.runner.load(this.stream(), ledgerDecider);
    const t = state.transfers.get(pendingId);
    return t !== undefined && t.pending && t.resolution === undefined;
  }
}

export const customerAccount = (id: string, currency: string): LedgerAccountSpec => ({
  id,
  currency,
  allowNegative: false,
});
