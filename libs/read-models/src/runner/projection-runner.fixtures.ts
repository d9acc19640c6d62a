import { ManualClock } from '#domain/clock.js';
import { SequentialIds, publicId, streams } from '#domain/primitives.js';
import type { EventStore, NewEvent } from '#event-store/event-store.js';
import { Collections } from '../projections/index.js';
import type { Doc, ReadModelStore } from '../read-model-store.js';

/** Appends realistic platform, customer and ledger events, the way the command handlers write them. */
export class Scenario {
  private readonly ids = new SequentialIds();
  readonly clock = new ManualClock(new Date('2025-10-13T09:00:00.000Z'));
  readonly platformId = publicId('Platform', this.ids.uuid());
  readonly settlementId = publicId('InternalAccount', this.ids.uuid());
  readonly accounts: string[] = [];
  /** Expected posted balance per account, from every transfer appended so far. */
  readonly balances = new Map<string, bigint>();
  private ledgerRevision: bigint | 'no_stream' = 'no_stream';

  constructor(private readonly store: EventStore) {}

  private now(): string {
    return this.clock.advance(1000).toISOString();
  }

  private async append(stream: string, events: NewEvent[]): Promise<bigint> {
    const metadata = { platformId: this.platformId, actor: 'test', correlationId: this.ids.uuid() };
    const result = await this.store.appendToStream(
      stream,
      events.map((e) => ({ ...e, metadata })),
    );
    return result.position;
  }

  async createPlatform(): Promise<bigint> {
    const createdAt = this.now();
    this.balances.set(this.settlementId, 0n);
    return this.append(streams.platform(this.platformId), [
      {
        type: 'PlatformCreated',
        data: {
          platformId: this.platformId,
          name: 'Acme Payments',
          sandbox: true,
          umaDomain: 'sandbox.uma.local',
          createdAt,
        },
      },
      {
        type: 'PlatformAccountOpened',
        data: {
          platformId: this.platformId,
          accountId: this.settlementId,
          type: 'INTERNAL_FIAT',
          currency: 'USD',
          createdAt,
        },
      },
    ]);
  }

  async createCustomer(n: number): Promise<string> {
    const customerId = publicId('Customer', this.ids.uuid());
    const accountId = publicId('InternalAccount', this.ids.uuid());
    const createdAt = this.now();
    await this.append(streams.customer(customerId), [
      {
        type: 'CustomerCreated',
        data: {
          customerId,
          platformId: this.platformId,
          platformCustomerId: `cust-${n}`,
          customerType: 'INDIVIDUAL',
          kycStatus: 'APPROVED',
          profile: {
            fullName: `Customer ${n}`,
            email: `c${n}@example.com`,
            currencies: ['USD'],
            umaAddress: `$c${n}@sandbox.uma.local`,
          },
          createdAt,
        },
      },
      {
        type: 'InternalAccountOpened',
        data: {
          accountId,
          customerId,
          platformId: this.platformId,
          type: 'INTERNAL_FIAT',
          currency: 'USD',
          status: 'ACTIVE',
          createdAt,
        },
      },
    ]);
    this.accounts.push(accountId);
    this.balances.set(accountId, 0n);
    return accountId;
  }

  /**
   * A posted transfer on the platform's ledger stream (opening ledger accounts the first time, as the decider does).
   */
  async transfer(debitAccountId: string, creditAccountId: string, amount: bigint): Promise<bigint> {
    const createdAt = this.now();
    const events: NewEvent[] = [];
    if (this.ledgerRevision === 'no_stream') {
      for (const id of [this.settlementId, ...this.accounts]) {
        events.push({
          type: 'LedgerAccountOpened',
          data: { id, currency: 'USD', allowNegative: id === this.settlementId },
        });
      }
    }
    events.push({
      type: 'TransferCreated',
      data: {
        id: publicId('Transfer', this.ids.uuid()),
        debitAccountId,
        creditAccountId,
        amount: amount.toString(),
        currency: 'USD',
        pending: false,
        code: 'SANDBOX_FUNDING',
        createdAt,
      },
    });
    const result = await this.store.appendToStream(
      streams.ledger(this.platformId),
      events.map((e) => ({ ...e, metadata: { platformId: this.platformId, actor: 'test' } })),
      { expectedRevision: this.ledgerRevision },
    );
    this.ledgerRevision = result.nextExpectedRevision;
    this.balances.set(debitAccountId, this.balances.get(debitAccountId)! - amount);
    this.balances.set(creditAccountId, this.balances.get(creditAccountId)! + amount);
    return result.position;
  }
}

export async function snapshot(readModels: ReadModelStore): Promise<Record<string, Doc[]>> {
  const result: Record<string, Doc[]> = {};
  for (const collection of Object.values(Collections)) {
    result[collection] = (await readModels.find(collection, { sortBy: 'id', limit: 1000 })).data;
  }
  return result;
}
