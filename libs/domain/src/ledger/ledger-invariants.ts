import { evolveLedger, initialLedgerState, postedBalance, type LedgerEvent, type LedgerState } from './ledger.js';

interface Leg {
  debit: string;
  credit: string;
  amount: bigint;
  currency: string;
}

/**
 * Proves one ledger stream's invariants from its events, fed in order (so a whole log can be
 * checked in one streamed pass): every transfer balanced (two distinct accounts of its currency,
 * a positive amount, a post no larger than its hold), per currency the postings sum to zero,
 * every account's balance (folded with the write path's evolveLedger) equals the sum of its
 * postings recomputed here, and no account that may not go negative is below zero counting holds.
 */
export class LedgerInvariants {
  private readonly state: LedgerState = initialLedgerState();
  private readonly postings = new Map<string, bigint>();
  private readonly byCurrency = new Map<string, bigint>();
  private readonly legs = new Map<string, Leg>();
  private readonly problems: string[] = [];

  constructor(private readonly ledger: string) {}

  apply(event: { type: string; data: Record<string, unknown> }): void {
    const d = event.data;
    if (event.type === 'TransferCreated') {
      const leg: Leg = {
        debit: String(d.debitAccountId),
        credit: String(d.creditAccountId),
        amount: BigInt(String(d.amount)),
        currency: String(d.currency),
      };
      const name = `${this.ledger}: transfer ${String(d.id)}`;
      if (leg.amount <= 0n) this.problems.push(`${name} moves a non-positive amount ${leg.amount}`);
      if (leg.debit === leg.credit) this.problems.push(`${name} debits and credits the same account ${leg.debit}`);
      for (const side of [leg.debit, leg.credit]) {
        const account = this.state.accounts.get(side);
        if (!account) this.problems.push(`${name} names account ${side}, never opened`);
        else if (account.currency !== leg.currency) {
          this.problems.push(`${name} in ${leg.currency} touches ${side} in ${account.currency}`);
        }
      }
      if (!this.state.accounts.has(leg.debit) || !this.state.accounts.has(leg.credit)) return;
      this.legs.set(String(d.id), leg);
      if (!d.pending) this.post(leg, leg.amount);
    } else if (event.type === 'PendingTransferPosted' || event.type === 'PendingTransferVoided') {
      const leg = this.legs.get(String(d.pendingId));
      if (!leg) {
        const what = `${String(d.id)} resolves ${String(d.pendingId)}`;
        this.problems.push(`${this.ledger}: ${what}, which is not a pending transfer`);
        return;
      }
      if (event.type === 'PendingTransferPosted') {
        const amount = BigInt(String(d.amount));
        if (amount > leg.amount || amount < 0n) {
          this.problems.push(`${this.ledger}: ${String(d.id)} posts ${amount} of a ${leg.amount} hold`);
        }
        this.post(leg, amount);
      }
    }
    evolveLedger(this.state, event as unknown as LedgerEvent);
  }

  private post(leg: Leg, amount: bigint): void {
    this.add(leg.debit, leg.currency, -amount);
    this.add(leg.credit, leg.currency, amount);
  }

  private add(account: string, currency: string, delta: bigint): void {
    this.postings.set(account, (this.postings.get(account) ?? 0n) + delta);
    this.byCurrency.set(currency, (this.byCurrency.get(currency) ?? 0n) + delta);
  }

  /** Every invariant that does not hold after the events applied so far (empty when the books balance). */
  findings(): string[] {
    const out = [...this.problems];
    for (const [currency, sum] of this.byCurrency) {
      if (sum !== 0n) out.push(`${this.ledger}: ${currency} postings sum to ${sum}, not 0`);
    }
    for (const [id, account] of this.state.accounts) {
      const balance = postedBalance(account);
      const recomputed = this.postings.get(id) ?? 0n;
      if (balance !== recomputed) {
        out.push(`${this.ledger}: account ${id} balance ${balance} differs from its postings ${recomputed}`);
      }
      const spendable = account.creditsPosted - account.debitsPosted - account.debitsPending;
      if (!account.allowNegative && spendable < 0n) {
        out.push(`${this.ledger}: account ${id} is negative (${spendable}) and may not be`);
      }
    }
    return out;
  }

  get accounts(): LedgerState['accounts'] {
    return this.state.accounts;
  }
}
