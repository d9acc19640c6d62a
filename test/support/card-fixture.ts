import type { Card, CardTransaction, Customer, InternalAccount, Page } from '@payments-platform/client';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import type { ManualClock } from '#domain/clock.js';
import { poll } from './poll.js';
import type { Client, TestService } from './service.js';
import { walletSession, type WalletSession } from './wallet-session.js';

/** A KYC-approved holder with a funded USD account, a wallet session, an ACTIVE card and one settled transaction. */
export interface Cardholder {
  customerId: string;
  usd: string;
  wallet: WalletSession;
  cardId: string;
  cardTransactionId: string;
}

/**
 * Builds a Cardholder through the client package (a refused step throws its PaymentsApiError); `name` keeps
 * platformCustomerId and email unique per call.
 */
export async function cardholder(t: TestService, api: Client, clock: ManualClock, name: string): Promise<Cardholder> {
  const client = api.payments;
  const profile = { fullName: 'Ada Lovelace', email: `${name}@example.com`, currencies: ['USD'] };
  const customer = await client.post<Customer>('/customers', {
    platformCustomerId: name,
    customerType: 'INDIVIDUAL',
    ...profile,
  });
  const accounts = await client.get<Page<InternalAccount>>('/customers/internal-accounts', { customerId: customer.id });
  const usd = accounts.data[0].id;
  await client.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
  const wallet = await walletSession(api, customer.id, 'USD');
  const card = await client.post<Card>('/cards', { customerId: customer.id, form: 'VIRTUAL', fundingSources: [usd] });
  clock.advance(CARD_ISSUANCE_DELAY_MS);
  await t.service.infra.jobs.promoteDue();
  // Provisioning runs in the worker: poll the read model (bounded) rather than sleeping a fixed time.
  await poll(
    () => client.get<Card>(`/cards/${card.id}`),
    (c) => c.state === 'ACTIVE',
    { timeoutMs: 5_000 },
  );
  const purchase = { amount: 500, currency: { code: 'USD' }, merchant: { descriptor: 'CORNER COFFEE' } };
  const authorization = await client.post<CardTransaction>(
    `/sandbox/cards/${card.id}/simulate/authorization`,
    purchase,
  );
  if (authorization.status !== 'AUTHORIZED') throw new Error(`authorization ${authorization.status}`);
  await client.post(`/sandbox/cards/${card.id}/simulate/clearing`, { cardTransactionId: authorization.id });
  return { customerId: customer.id, usd, wallet, cardId: card.id, cardTransactionId: authorization.id };
}
