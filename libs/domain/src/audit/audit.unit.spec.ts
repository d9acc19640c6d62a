import { describe, expect, it } from '@jest/globals';
import { cardDecider } from '../cards/card.js';
import type { CardEvent, CardSnapshot } from '../cards/card-types.js';
import { ledgerPostings, ledgerTotals } from './as-of.js';
import { REDACTED, businessTime, effectiveTimes, decodeCursor, encodeCursor, eventsUpTo, fold, pageOf, redact, toHistoryEntry, type AuditSourceEvent } from './history.js';

let revision = 0n;
const recorded = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}, at = '2026-01-05T12:00:00.000Z'): AuditSourceEvent => ({
  type,
  data,
  metadata,
  revision: revision++,
  recordedAt: new Date(at),
});

const card = (state: CardSnapshot['state'], updatedAt: string): CardSnapshot => ({
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
    const data = { issuanceSeed: 'abc', nested: [{ sealedSeed: 'x', otpCode: '123456', secretHash: 'h', publicKey: 'pk', transactionHash: '0x1' }], amount: 5 };
    expect(redact(data)).toEqual({
      issuanceSeed: REDACTED,
      nested: [{ sealedSeed: REDACTED, otpCode: REDACTED, secretHash: REDACTED, publicKey: 'pk', transactionHash: '0x1' }],
      amount: 5,
    });
    expect(data.issuanceSeed).toBe('abc');
  });

  it('takes actor, correlation id and business time from the event', () => {
    const e = recorded('CardStateChanged', { card: card('FROZEN', '2026-01-06T00:00:00.000Z'), issuanceSeed: 's' }, { actor: 'ApiToken:1', correlationId: 'c-1' });
    const entry = toHistoryEntry(e);
    expect(entry).toMatchObject({ type: 'CardStateChanged', actor: 'ApiToken:1', correlationId: 'c-1', occurredAt: '2026-01-06T00:00:00.000Z', recordedAt: '2026-01-05T12:00:00.000Z' });
    expect(entry.changes.issuanceSeed).toBe(REDACTED);
    expect(toHistoryEntry(recorded('X', {})).actor).toBeNull();
    expect(businessTime({ updatedAt: 'not a time' }, { now: '2026-02-01T00:00:00.000Z' })).toBe('2026-02-01T00:00:00.000Z');
  });

  it('folds a card up to an instant on the business time, not the store time', () => {
    const events = [
      recorded('CardCreated', { platformId: 'Platform:1', cardId: 'Card:1', walletAccountId: 'w', issuanceSeed: 's', sandbox: true, card: card('ACTIVE', '2026-01-05T12:00:00.000Z') }),
      recorded('CardStateChanged', { platformId: 'Platform:1', cardId: 'Card:1', previousState: 'ACTIVE', card: card('FROZEN', '2026-01-05T13:00:00.000Z') }),
      recorded('CardStateChanged', { platformId: 'Platform:1', cardId: 'Card:1', previousState: 'FROZEN', card: card('ACTIVE', '2026-01-05T15:00:00.000Z') }),
    ];
    const at = (iso: string) => fold(cardDecider.initialState(), cardDecider.evolve, eventsUpTo(events, new Date(iso)) as unknown as CardEvent[]).card?.state;
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
    expect(eventsUpTo(events, new Date(hour(12))).map((e) => e.type)).toEqual(['LedgerAccountOpened', 'TransferCreated', 'SignedRequestApplied']);
    expect(effectiveTimes([recorded('X', {}, {}, store)])).toEqual([Date.parse(store)]);
  });
});

describe('audit pagination', () => {
  const entries = Array.from({ length: 5 }, (_, i) => ({ revision: i }));
  it('pages by revision with an opaque cursor', () => {
    const first = pageOf(entries, { limit: 2 });
    expect(first).toEqual({ data: [{ revision: 0 }, { revision: 1 }], hasMore: true, nextCursor: encodeCursor(1), totalCount: 5 });
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
  const transfer = (id: string, debit: string, credit: string, amount: number, pending = false, at = '2026-01-05T12:00:00.000Z') =>
    recorded('TransferCreated', { id, debitAccountId: debit, creditAccountId: credit, amount: String(amount), currency: 'USD', pending, code: 'TEST', createdAt: at });
  const events = [
    recorded('LedgerAccountOpened', spec('S', true)),
    recorded('LedgerAccountOpened', spec('A')),
    recorded('LedgerAccountOpened', spec('B')),
    transfer('t1', 'S', 'A', 1000),
    transfer('t2', 'A', 'B', 300, false, '2026-01-05T13:00:00.000Z'),
    transfer('t3', 'A', 'S', 200, true, '2026-01-05T14:00:00.000Z'),
    recorded('PendingTransferPosted', { id: 't4', pendingId: 't3', amount: '150', createdAt: '2026-01-05T15:00:00.000Z' }),
  ];

  it('lists the account’s postings in order with the posted balance after each', () => {
    const postings = ledgerPostings(events, 'A');
    expect(postings.map((p) => [p.posting.transferId, p.posting.direction, p.posting.kind, p.posting.amount, p.balance])).toEqual([
      ['t1', 'CREDIT', 'SETTLED', 1000, 1000],
      ['t2', 'DEBIT', 'SETTLED', 300, 700],
      ['t3', 'DEBIT', 'PENDING', 200, 700],
      ['t4', 'DEBIT', 'POSTED', 150, 550],
    ]);
  });

  it('gives the balance as of an instant equal to the sum of the postings up to then', () => {
    const upTo = eventsUpTo(events, new Date('2026-01-05T13:30:00.000Z'));
    expect(ledgerTotals(upTo, 'A').balance).toBe(700n);
    expect(ledgerTotals(events, 'A')).toMatchObject({ balance: 550n, debitsPending: '0', debitsPosted: '450', creditsPosted: '1000' });
  });
});
