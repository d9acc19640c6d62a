import { invalid } from '../errors.js';
import { statedAmount } from '../primitives.js';
import { cardDecider } from './card.js';
import {
  addSpend,
  isSpendingDecline,
  spendingDecline,
  type SpendingControls,
  type SpendUsage,
} from './card-spending.js';
import type { CardAggregate, CardAuthorizationRecord, CardEvent, DeclineReason, Merchant } from './card-types.js';

/** The longest period a backtest replays. */
export const MAX_BACKTEST_DAYS = 366;
/** At most this many changed authorizations are listed (the counts and amounts cover them all). */
export const MAX_LISTED_CHANGES = 10_000;

export interface BacktestPeriod {
  from: string;
  to: string;
}

/** The period as given: two instants, from before to, at most MAX_BACKTEST_DAYS apart (400 INVALID_INPUT). */
export function checkBacktestPeriod(period: BacktestPeriod): BacktestPeriod {
  const from = Date.parse(period.from);
  const to = Date.parse(period.to);
  if (Number.isNaN(from)) throw invalid('INVALID_INPUT', 'from must be an ISO 8601 date-time', 'from');
  if (Number.isNaN(to)) throw invalid('INVALID_INPUT', 'to must be an ISO 8601 date-time', 'to');
  if (from >= to) throw invalid('INVALID_INPUT', 'from must be before to', 'to');
  if (to - from > MAX_BACKTEST_DAYS * 86_400_000)
    throw invalid('INVALID_INPUT', `a backtest covers at most ${MAX_BACKTEST_DAYS} days`, 'to');
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

type Outcome = 'APPROVED' | 'DECLINED';
export interface Decision {
  outcome: Outcome;
  declineReason: DeclineReason | null;
}

/** An authorization whose decision the draft changes. */
export interface BacktestChange {
  authorizationId: string;
  at: string;
  amount: number;
  currency: string;
  merchant: Merchant;
  actual: Decision;
  draft: Decision;
  /**
   * Declined by the spending controls in force, approved by the draft: the platform's decision endpoint and the funds
   * were never tried, so the approval assumes they would have approved.
   */
  fundsAssumed?: boolean;
}

interface Tally {
  count: number;
  total: bigint;
}
const stated = (t: Tally) => ({ count: t.count, ...statedAmount(t.total) });
const add = (t: Tally, amount: bigint) => ({ count: t.count + 1, total: t.total + amount });
const none = (): Tally => ({ count: 0, total: 0n });

const decisionOf = (a: CardAuthorizationRecord): Decision =>
  a.status === 'DECLINED'
    ? { outcome: 'DECLINED', declineReason: a.declineReason }
    : { outcome: 'APPROVED', declineReason: null };

/**
 * What the draft decides of an authorization the card recorded, on the card's state then: a decline by the card's
 * state or currency stands (checked before the controls), as does an outcome taken outside the rules (stand-in);
 * then the draft's controls, with what the card spent under the draft's own decisions (the same function the card
 * decider calls); then the platform's decision and the funds as the history found them (PLATFORM_DECLINED and
 * INSUFFICIENT_FUNDS stay so; an approval had them).
 */
export function redecide(
  a: CardAuthorizationRecord,
  draft: SpendingControls | null,
  draftUsage: SpendUsage | undefined,
): Decision & { fundsAssumed?: boolean } {
  const actual = decisionOf(a);
  // An outcome taken outside the rules (the stand-in's, or the network's in an advice) stands.
  if (a.decision?.decidedBy === 'STAND_IN') return actual;
  const { declineReason } = actual;
  const after = declineReason === 'INSUFFICIENT_FUNDS' || declineReason === 'PLATFORM_DECLINED';
  if (declineReason !== null && !after && !isSpendingDecline(declineReason)) return actual;
  const request = { amount: BigInt(a.amount), merchant: a.merchant, at: a.createdAt };
  const reason = spendingDecline(draft, draftUsage, request);
  if (reason) return { outcome: 'DECLINED', declineReason: reason };
  // What came after the controls (the platform's decision, the funds) is taken as the history found it.
  if (after) return actual;
  return { outcome: 'APPROVED', declineReason: null, ...(actual.outcome === 'DECLINED' ? { fundsAssumed: true } : {}) };
}

const pairKey = (actual: Decision, draft: Decision) =>
  `${actual.outcome}:${actual.declineReason ?? ''}>${draft.outcome}:${draft.declineReason ?? ''}`;

/**
 * Replays a card's stream (its events in order, fed page by page) against a draft of spending controls: each
 * authorization recorded in [from, to) is decided again by `redecide` on the card's state as the events before it
 * left it. Authorizations before `from` count towards the draft's daily and monthly usage as they were decided.
 * Linear in the events: the card's state is folded once with its decider's `evolve`.
 */
export class CardBacktest {
  private state: CardAggregate = cardDecider.initialState();
  private draftUsage: SpendUsage | undefined;
  private examined = 0;
  private actualApproved = none();
  private draftApproved = none();
  private changed = none();
  private readonly pairs = new Map<string, { actual: Decision; draft: Decision; tally: Tally }>();
  private readonly changes: BacktestChange[] = [];

  constructor(
    private readonly draft: SpendingControls | null,
    private readonly period: BacktestPeriod,
  ) {}

  apply(event: CardEvent): void {
    if (event.type === 'CardAuthorizationRecorded') this.authorization(event.data.authorization);
    this.state = cardDecider.evolve(this.state, event);
  }

  private authorization(a: CardAuthorizationRecord): void {
    const amount = BigInt(a.amount);
    if (a.createdAt < this.period.from || a.createdAt >= this.period.to) {
      if (a.status !== 'DECLINED' && a.createdAt < this.period.from)
        this.draftUsage = addSpend(this.draftUsage, amount, a.createdAt);
      return;
    }
    this.examined += 1;
    const actual = decisionOf(a);
    const { fundsAssumed, ...draft } = redecide(a, this.draft, this.draftUsage);
    if (actual.outcome === 'APPROVED') this.actualApproved = add(this.actualApproved, amount);
    if (draft.outcome === 'APPROVED') {
      this.draftApproved = add(this.draftApproved, amount);
      this.draftUsage = addSpend(this.draftUsage, amount, a.createdAt);
    }
    if (actual.outcome === draft.outcome && actual.declineReason === draft.declineReason) return;
    this.changed = add(this.changed, amount);
    const key = pairKey(actual, draft);
    const pair = this.pairs.get(key) ?? { actual, draft, tally: none() };
    this.pairs.set(key, { ...pair, tally: add(pair.tally, amount) });
    if (this.changes.length >= MAX_LISTED_CHANGES) return;
    const { id, createdAt: at, currency, merchant } = a;
    const change = { authorizationId: id, at, amount: Number(amount), currency, merchant, actual, draft };
    this.changes.push(fundsAssumed ? { ...change, fundsAssumed } : change);
  }

  /** The card as the replay found it (exists once its creation was fed). */
  get card(): CardAggregate {
    return this.state;
  }

  report() {
    return {
      ...this.period,
      spendingControls: this.draft,
      authorizations: this.examined,
      actualApproved: stated(this.actualApproved),
      draftApproved: stated(this.draftApproved),
      changed: stated(this.changed),
      transitions: [...this.pairs.values()].map(({ actual, draft, tally }) => ({
        actual,
        draft,
        ...stated(tally),
      })),
      changes: this.changes,
      changesTruncated: this.changed.count > this.changes.length,
    };
  }
}

export type CardBacktestReport = ReturnType<CardBacktest['report']>;
