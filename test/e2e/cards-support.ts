import { expect } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { available } from '#domain/ledger/ledger.js';
import { loadLedger } from '../support/ledger-check.js';
import { useTestService } from '../support/fixture.js';
import { signedRequest, walletHolder, type WalletSession } from '../support/wallet-session.js';
import { poll } from '../support/poll.js';

/** A card transaction's id. */
export const CARD_TX_ID = /^CardTransaction:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const usd = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
/** A USD amount as the API shows it. */
export const usdAmount = (amount: number) => ({ amount, currency: usd });

/** The CardTransaction of a fresh authorization of `amount` (one pull, nothing settled or refunded), made `at`. */
export const authorizedTransaction = (f: {
  cardId: string;
  customerId: string;
  merchant: unknown;
  amount: number;
  accountId: string;
  at: string;
  issuerTransactionToken: unknown;
}) => ({
  id: expect.stringMatching(CARD_TX_ID),
  cardId: f.cardId,
  customerId: f.customerId,
  issuerTransactionToken: f.issuerTransactionToken,
  status: 'AUTHORIZED',
  merchant: f.merchant,
  authorizedAmount: usdAmount(f.amount),
  settledAmount: usdAmount(0),
  refundedAmount: usdAmount(0),
  accountId: f.accountId,
  pullSummary: { count: 1, totalAmount: f.amount, pendingCount: 0 },
  refundSummary: { count: 0, totalAmount: 0 },
  settlementSummary: { count: 0, totalAmount: 0 },
  authorizedAt: f.at,
  // No decision endpoint registered: the service's rules approved it.
  decision: { decidedBy: 'RULES', elapsedMs: expect.any(Number) },
  createdAt: f.at,
  updatedAt: f.at,
});

export interface Holder {
  customerId: string;
  usd: string;
  eur: string;
  wallet: WalletSession;
}

/**
 * A service of its own for a cards e2e file (started before its tests, closed after), with the helpers those
 * tests share: holders with USD and EUR accounts and a wallet session, cards, provisioning, signed PATCHes.
 */
export function cardsHarness(start: number) {
  const clock = new ManualClock(start);
  const t = useTestService({ clock });
  let counter = 0;

  const harness = {
    clock,
    t,
    api: t.api,
    async holder(fullName = 'Ada Lovelace'): Promise<Holder> {
      const h = await walletHolder(t.api, { fullName, currencies: ['USD', 'EUR'] });
      return { customerId: h.customerId, usd: h.usd, eur: h.accounts.EUR, wallet: h.wallet };
    },
    async card(h: Holder, body: Record<string, unknown> = {}) {
      const res = await t.api.post('/cards', {
        customerId: h.customerId,
        form: 'VIRTUAL',
        fundingSources: [h.usd, h.wallet.accountId],
        ...body,
      });
      expect(res.status).toBe(201);
      return res.body;
    },
    until: <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string) => poll(read, done, { what }),
    get: async (id: string) => (await t.api.get(`/cards/${id}`)).body,
    /** Lets the sandbox issuer answer: the provisioning timer is due after the delay on the clock. */
    async provision(id: string) {
      clock.advance(CARD_ISSUANCE_DELAY_MS);
      await t.service.infra.jobs.promoteDue();
      return harness.until(
        () => harness.get(id),
        (c) => c.state !== 'PENDING_ISSUE',
        `card ${id} to leave PENDING_ISSUE`,
      );
    },
    async activeCard(h: Holder, body: Record<string, unknown> = {}) {
      const c = await harness.card(h, body);
      expect((await harness.provision(c.id)).state).toBe('ACTIVE');
      return harness.get(c.id);
    },
    patch: (id: string, body: Record<string, unknown>, session: WalletSession) =>
      signedRequest(t.api, 'PATCH', `/cards/${id}`, body, session),
    cardEvents: async (id: string) => t.service.infra.eventStore.readStream(streams.card(id)),
    /** A network transaction id not used before in this file: `<what>-<n>`. */
    ntid: (what: string) => `${what}-${++counter}`,
    platformId: () => t.service.sandbox!.platformId,
    /** A holder whose USD account is funded with `usd`, and an ACTIVE card drawing on that account. */
    async funded(usd: number, body: Record<string, unknown> = {}): Promise<{ holder: Holder; cardId: string }> {
      const holder = await harness.holder();
      expect((await t.api.post(`/sandbox/internal-accounts/${holder.usd}/fund`, { amount: usd })).status).toBe(200);
      const card = await harness.activeCard(holder, { fundingSources: [holder.usd], ...body });
      return { holder, cardId: card.id };
    },
    /** The account's available amount on the ledger (its balance less its pending holds). */
    availableOf: async (accountId: string) =>
      available((await loadLedger(t.service.infra.eventStore, harness.platformId())).accounts.get(accountId)!),
    /** The account's balance as the API shows it. */
    balance: async (id: string) => (await t.api.get(`/internal-accounts/${id}`)).body.balance.amount,
  };
  return harness;
}
