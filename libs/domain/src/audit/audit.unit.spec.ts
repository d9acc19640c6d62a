import { describe, expect, it } from '@jest/globals';
import { cardDecider } from '../cards/card.js';
import type { CardEvent, CardSnapshot } from '../cards/card-types.js';
import { ledgerLegs, ledgerPostings, ledgerTotals } from './as-of.js';
import { REDACTED, businessTime, effectiveTimes, decodeCursor, encodeCursor, eventsUpTo, fold } from './history.js';
import { pageOf, redact, toHistoryEntry, type AuditSourceEvent } from './history.js';
import { usdTransferCreated } from '../testing/fixtures.js';

let revision = 0n;
const T12 = '2026-01-05T12:00:00.000Z';
const T13 = '2026-01-05T13:00:00.000Z';
const T15 = '2026-01-05T15:00:00.000Z';
const ids = { platformId: 'Platform:1', cardId: 'Card:1' };
type Data = Record<string, unknown>;
const recorded = (type: string, data: Data, metadata: Data = {}, at = T12): AuditSourceEvent => ({
  type,
  data,
  metadata,
  revision: revision++,
  recordedAt: new Date(at),
});

const card = (state: CardSnapshot['state'], updatedAt: string): CardSnapshot =>
  ({
    id: 'Card:1',
    customerId: 'Customer:1',
    state,
    stateReason: null,
    form: 'VIRTUAL',
    fundingSources: ['InternalAccount:1'],
    platformCardId: null,
    brand: 'VISA',
    last4: '4242',
    expMonth: 1,
    expYear: 2030,
    panEmbedUrl: null,
    currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
    issuerRef: 'iss',
    createdAt: '2026-01-05T12:00:00.000Z',
    updatedAt,
  }) as unknown as CardSnapshot;

describe('audit history entries', () => {
  it('redacts secrets at any depth and keeps what is not secret', () => {
    const inner = { sealedSeed: 'x', otpCode: '123456', secretHash: 'h', publicKey: 'pk', transactionHash: '0x1' };
    const data = { issuanceSeed: 'abc', nested: [inner], amount: 5 };
    expect(redact(data)).toEqual({
      issuanceSeed: REDACTED,
      nested: [{ ...inner, sealedSeed: REDACTED, otpCode: REDACTED, secretHash: REDACTED }],
      amount: 5,
    });
    expect(data.issuanceSeed).toBe('abc');
  });

  it('takes actor, correlation id and business time from the event', () => {
    const data = { card: card('FROZEN', '2026-01-06T00:00:00.000Z'), issuanceSeed: 's' };
    const e = recorded('CardStateChanged', data, { actor: 'ApiToken:1', correlationId: 'c-1' });
    const entry = toHistoryEntry(e);
    expect(entry).toMatchObject({ type: 'CardStateChanged', actor: 'ApiToken:1', correlationId: 'c-1' });
    expect(entry).toMatchObject({ occurredAt: '2026-01-06T00:00:00.000Z', recordedAt: '2026-01-05T12:00:00.000Z' });
    expect(entry.changes.issuanceSeed).toBe(REDACTED);
    expect(toHistoryEntry(recorded('X', {})).actor).toBeNull();
    const now = '2026-02-01T00:00:00.000Z';
    expect(businessTime({ updatedAt: 'not a time' }, { now })).toBe(now);
  });

  it('folds a card up to an instant on the business time, not the store time', () => {
    const events = [
      recorded('CardCreated', { ...ids, issuanceSeed: 's', sandbox: true, card: card('ACTIVE', T12) }),
      recorded('CardStateChanged', { ...ids, previousState: 'ACTIVE', card: card('FROZEN', T13) }),
      recorded('CardStateChanged', { ...ids, previousState: 'FROZEN', card: card('ACTIVE', T15) }),
    ];
    const at = (iso: string) =>
      fold(cardDecider.initialState(), cardDecider.evolve, eventsUpTo(events, new Date(iso)) as unknown as CardEvent[])
        .card?.state;
    expect(at('2026-01-05T11:59:59.999Z')).toBeUndefined();
    expect(at('2026-01-05T12:30:00.000Z')).toBe('ACTIVE');
    expect(at('2026-01-05T13:00:00.000Z')).toBe('FROZEN');
    expect(at('2026-01-05T14:00:00.000Z')).toBe('FROZEN');
    expect(at('2026-01-05T16:00:00.000Z')).toBe('ACTIVE');
  });
});

describe('event times', () => {
  it('gives events without a business time the time of their neighbours, never the store time', () => {
    const store = '2030-01-01T00:00:00.000Z';
    const events = [
      recorded('LedgerAccountOpened', { id: 'A' }, {}, store),
      recorded('TransferCreated', { createdAt: '2026-01-05T12:00:00.000Z' }, {}, store),
      recorded('SignedRequestApplied', { requestId: 'r' }, {}, store),
      recorded('TransferCreated', { createdAt: '2026-01-05T13:00:00.000Z' }, {}, store),
    ];
    const hour = (h: number) => Date.parse(`2026-01-05T${h}:00:00.000Z`);
    expect(effectiveTimes(events)).toEqual([hour(12), hour(12), hour(12), hour(13)]);
    const upTo = eventsUpTo(events, new Date(hour(12))).map((e) => e.type);
    expect(upTo).toEqual(['LedgerAccountOpened', 'TransferCreated', 'SignedRequestApplied']);
    expect(effectiveTimes([recorded('X', {}, {}, store)])).toEqual([Date.parse(store)]);
  });
});

describe('audit pagination', () => {
  const entries = Array.from({ length: 5 }, (_, i) => ({ revision: i }));
  it('pages by revision with an opaque cursor', () => {
    const first = pageOf(entries, { limit: 2 });
    const data = [{ revision: 0 }, { revision: 1 }];
    const page = { data, hasMore: true, nextCursor: encodeCursor(1), totalCount: 5 };
    expect(first).toEqual(page);
    const last = pageOf(entries, { limit: 2, cursor: encodeCursor(3) });
    expect(last).toEqual({ data: [{ revision: 4 }], hasMore: false, totalCount: 5 });
    expect(decodeCursor(encodeCursor(42))).toBe(42);
  });
  it('refuses bad cursors and limits', () => {
    expect(() => pageOf(entries, { cursor: 'nope!' })).toThrow(/cursor/);
    expect(() => pageOf(entries, { cursor: Buffer.from('rev:x').toString('base64url') })).toThrow(/cursor/);
    expect(() => pageOf(entries, { limit: 0 })).toThrow(/limit/);
    expect(() => pageOf(entries, { limit: 101 })).toThrow(/limit/);
  });
});

describe('ledger postings with running balance', () => {
  const spec = (id: string, allowNegative = false) => ({ id, currency: 'USD', allowNegative });
  const transfer = (id: string, debit: string, credit: string, amount: number, pending = false, at = T12) =>
    recorded('TransferCreated', usdTransferCreated(id, debit, credit, amount, pending, at));
  const events = [
    recorded('LedgerAccountOpened', spec('S', true)),
    recorded('LedgerAccountOpened', spec('A')),
    recorded('LedgerAccountOpened', spec('B')),
    transfer('t1', 'S', 'A', 1000),
    transfer('t2', 'A', 'B', 300, false, '2026-01-05T13:00:00.000Z'),
    transfer('t3', 'A', 'S', 200, true, '2026-01-05T14:00:00.000Z'),
    recorded('PendingTransferPosted', { id: 't4', pendingId: 't3', amount: '150', createdAt: T15 }),
  ];

  it('lists the account’s postings in order with the posted balance after each', () => {
    const postings = ledgerPostings(events, 'A');
    const rows = postings.map(({ posting: p, balance }) => [p.transferId, p.direction, p.kind, p.amount, balance]);
    expect(rows).toEqual([
      ['t1', 'CREDIT', 'SETTLED', 1000, 1000],
      ['t2', 'DEBIT', 'SETTLED', 300, 700],
      ['t3', 'DEBIT', 'PENDING', 200, 700],
      ['t4', 'DEBIT', 'POSTED', 150, 550],
    ]);
  });

  it('lists the legs made for a reference, with the posts and voids of its holds', () => {
    const referenced = (id: string, debit: string, credit: string, amount: number, pending: boolean) =>
      recorded('TransferCreated', { ...usdTransferCreated(id, debit, credit, amount, pending, T12), reference: 'R' });
    const withHolds = [
      ...events,
      referenced('r1', 'A', 'B', 100, true),
      referenced('r2', 'B', 'A', 40, false),
      recorded('PendingTransferVoided', { id: 'r3', pendingId: 'r1', createdAt: T15 }),
      referenced('r4', 'A', 'S', 30, true),
      recorded('PendingTransferPosted', { id: 'r5', pendingId: 'r4', amount: '20', createdAt: T15 }),
    ];
    const legs = ledgerLegs(withHolds, 'R').map((e) => e.leg);
    const rows = legs.map((l) => [l.transferId, l.debitAccountId, l.creditAccountId, l.kind, l.amount]);
    expect(rows).toEqual([
      ['r1', 'A', 'B', 'PENDING', 100],
      ['r2', 'B', 'A', 'SETTLED', 40],
      ['r3', 'A', 'B', 'VOIDED', 0],
      ['r4', 'A', 'S', 'PENDING', 30],
      ['r5', 'A', 'S', 'POSTED', 20],
    ]);
    const leg = { debitAccountId: 'A', creditAccountId: 'S', currency: 'USD', code: 'TEST' };
    expect(legs[3]).toEqual({ ...leg, transferId: 'r4', amount: 30, kind: 'PENDING' });
    expect(legs[4]).toEqual({ ...leg, transferId: 'r5', amount: 20, kind: 'POSTED', pendingTransferId: 'r4' });
  });

  it('gives the balance as of an instant equal to the sum of the postings up to then', () => {
    const upTo = eventsUpTo(events, new Date('2026-01-05T13:30:00.000Z'));
    expect(ledgerTotals(upTo, 'A').balance).toBe(700n);
    const totals = { balance: 550n, debitsPending: '0', debitsPosted: '450', creditsPosted: '1000' };
    expect(ledgerTotals(events, 'A')).toMatchObject(totals);
  });
});
