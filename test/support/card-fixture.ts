import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import type { ManualClock } from '#domain/clock.js';
import type { Client, Reply, TestService } from './service.js';
import { walletSession, type WalletSession } from './wallet-session.js';

/** A KYC-approved holder with a funded USD account, a wallet session, an ACTIVE card and one settled transaction. */
export interface Cardholder {
  customerId: string;
  usd: string;
  wallet: WalletSession;
  cardId: string;
  cardTransactionId: string;
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status)
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** Builds a Cardholder over HTTP; `name` keeps platformCustomerId and email unique per call. */
export async function cardholder(t: TestService, api: Client, clock: ManualClock, name: string): Promise<Cardholder> {
  const profile = { fullName: 'Ada Lovelace', email: `${name}@example.com`, currencies: ['USD'] };
  const customer = await api.post('/customers', { platformCustomerId: name, customerType: 'INDIVIDUAL', ...profile });
  expectStatus(customer, 201, 'create customer');
  const customerId = customer.body.id as string;
  const usd = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0]
    .id as string;
  expectStatus(await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 }), 200, 'fund');
  const wallet = await walletSession(api, customerId, 'USD');
  const card = await api.post('/cards', { customerId, form: 'VIRTUAL', fundingSources: [usd] });
  expectStatus(card, 201, 'create card');
  clock.advance(CARD_ISSUANCE_DELAY_MS);
  await t.service.infra.jobs.promoteDue();
  // Provisioning runs in the worker: poll the read model (bounded) rather than sleeping a fixed time.
  for (let i = 0; i < 500 && (await api.get(`/cards/${card.body.id}`)).body.state !== 'ACTIVE'; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const purchase = { amount: 500, currency: { code: 'USD' }, merchant: { descriptor: 'CORNER COFFEE' } };
  const authorization = await api.post(`/sandbox/cards/${card.body.id}/simulate/authorization`, purchase);
  expectStatus(authorization, 200, 'authorize');
  if (authorization.body.status !== 'AUTHORIZED') throw new Error(`authorization ${authorization.body.status}`);
  const clearing = await api.post(`/sandbox/cards/${card.body.id}/simulate/clearing`, {
    cardTransactionId: authorization.body.id,
  });
  expectStatus(clearing, 200, 'clear');
  return { customerId, usd, wallet, cardId: card.body.id, cardTransactionId: authorization.body.id };
}
