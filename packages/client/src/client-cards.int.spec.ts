import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '../../../libs/domain/src/cards/card-issuer.js';
import { ManualClock } from '../../../libs/domain/src/clock.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { PaymentsClient, type Page } from './client.js';
import type { AuthMethod, Card, InternalAccount } from './types.js';
import { startWalletSession, type WalletSession } from './wallet.js';

/** A card frozen through the client: the holder's wallet session opened by the package, the PATCH one signed call. */
describe('PaymentsClient: a signed card freeze', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 12));
  let t: TestService;
  let client: PaymentsClient;

  beforeAll(async () => {
    t = await startTestService({ clock });
    const { tokenId, clientSecret } = t.service.sandbox!;
    client = new PaymentsClient({ baseUrl: t.url, tokenId, clientSecret });
  });
  afterAll(async () => t?.close());

  /** A customer with a funded USD account and an embedded wallet with a verified EMAIL_OTP session. */
  async function holder(): Promise<{ customerId: string; usd: string; wallet: WalletSession }> {
    const customer = await client.post<{ id: string }>('/customers', {
      platformCustomerId: 'client-cardholder',
      customerType: 'INDIVIDUAL',
      fullName: 'Grace Hopper',
      email: 'grace@example.com',
      currencies: ['USD'],
    });
    const accounts = await client.get<Page<InternalAccount>>('/customers/internal-accounts', {
      customerId: customer.id,
      type: 'INTERNAL_FIAT',
    });
    const usd = accounts.data.find((a) => a.balance.currency.code === 'USD')!.id;
    await client.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
    const wallet = await client.post<InternalAccount>('/customers/internal-accounts', {
      customerId: customer.id,
      type: 'EMBEDDED_WALLET',
      currency: 'USD',
    });
    const credentials = await client.get<Page<AuthMethod>>('/auth/credentials', { accountId: wallet.id });
    const emailOtp = credentials.data.find((c) => c.type === 'EMAIL_OTP')!;
    await client.post(`/auth/credentials/${emailOtp.id}/challenge`, {});
    const session = await startWalletSession(client, emailOtp.id, { type: 'EMAIL_OTP', otp: '000000' });
    return { customerId: customer.id, usd, wallet: session };
  }

  /** Lets the sandbox issuer answer (its timer is due on the platform clock), then reads the card (bounded). */
  async function issued(cardId: string): Promise<Card> {
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    for (let i = 0; i < 500; i++) {
      const card = await client.get<Card>(`/cards/${cardId}`);
      if (card.state !== 'PENDING_ISSUE') return card;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`card ${cardId} stayed PENDING_ISSUE`);
  }

  it('issues a card, freezes it with client.signed and the session key, and the card reads FROZEN', async () => {
    const h = await holder();
    expect(h.wallet.session.accountId).toBeDefined();
    expect(h.wallet.key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const created = await client.post<Card>(
      '/cards',
      { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd] },
      { idempotencyKey: 'client-card-1' },
    );
    expect(created.state).toBe('PENDING_ISSUE');
    expect((await issued(created.id)).state).toBe('ACTIVE');

    // Without a stamp the service does not act: it answers the 202 challenge.
    const challenge = await client.exchange<{ payloadToSign: string }>('PATCH', `/cards/${created.id}`, {
      body: { state: 'FROZEN' },
    });
    expect(challenge.status).toBe(202);
    expect((await client.get<Card>(`/cards/${created.id}`)).state).toBe('ACTIVE');

    const frozen = await client.signed<Card>('PATCH', `/cards/${created.id}`, { state: 'FROZEN' }, h.wallet.key);
    expect(frozen).toMatchObject({ id: created.id, state: 'FROZEN' });
    expect((await client.get<Card>(`/cards/${created.id}`)).state).toBe('FROZEN');
    // A purchase on the frozen card is declined: the simulator answers 400 with the decline reason as the code.
    const purchase = client.post(`/sandbox/cards/${created.id}/simulate/authorization`, {
      amount: 500,
      currency: { code: 'USD' },
      merchant: { descriptor: 'CORNER COFFEE', mcc: '5814' },
    });
    await expect(purchase).rejects.toMatchObject({ status: 400, code: 'CARD_PAUSED' });

    // Unfreezing is the same one signed call.
    const active = await client.signed<Card>('PATCH', `/cards/${created.id}`, { state: 'ACTIVE' }, h.wallet.key);
    expect(active.state).toBe('ACTIVE');
  });
});
