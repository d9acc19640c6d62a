/**
 * Issue a virtual card, then freeze and unfreeze it. A card's state belongs to its holder: every change is a
 * signed retry stamped by a session of the holder's embedded wallet, which `client.signed` performs in one
 * call (PATCH → 202 challenge → stamp → PATCH again with `Service-Wallet-Signature` and `Request-Id`).
 *
 *   1. a customer with a USD account (funded in the sandbox) and an embedded wallet session;
 *   2. a card funded by the USD account; the sandbox issuer answers 5 seconds later on the platform's
 *      clock, so the example moves the sandbox clock instead of waiting;
 *   3. freeze: a purchase is declined `CARD_PAUSED`; unfreeze: the same purchase is approved.
 *
 * Run: node dist/examples/freeze-card.js   (sandbox platform; environment: see setup.ts)
 */
import { PaymentsApiError, type PaymentsClient } from '@payments-platform/client';
import { fundedUsdCustomer } from './customers.js';
import { check, platformClient, run, show, step, uniqueRef } from './setup.js';
import { openEmbeddedWallet, startEmailOtpSession } from './wallet.js';

interface Card {
  id: string;
  state: 'PENDING_KYC' | 'PENDING_ISSUE' | 'ACTIVE' | 'FROZEN' | 'CLOSED';
  stateReason: string | null;
  fundingSources: string[];
  brand?: string;
  /** Absent until the issuer has issued the card. */
  last4?: string;
}

interface CardTransaction {
  id: string;
  status: 'AUTHORIZED' | 'PARTIALLY_SETTLED' | 'SETTLED' | 'REFUNDED' | 'EXCEPTION';
  authorizedAmount: { amount: number; currency: { code: string } };
}

/** The sandbox issuer's answer time (platform clock). */
const ISSUANCE_DELAY_SECONDS = 5;

run('freeze-card', async () => {
  const client = platformClient();

  step('Create a cardholder with a funded USD account and a wallet session');
  const { customer, account: usd } = await fundedUsdCustomer(
    client,
    { ref: 'cardholder', fullName: 'Grace Hopper', email: 'grace@example.com' },
    10_000,
  );
  const { emailOtp } = await openEmbeddedWallet(client, customer.id);
  const session = await startEmailOtpSession(client, emailOtp);
  show('customer', customer.id);
  show('funding', `${usd.id} (100.00 USD)`);
  show('session', session.sessionId);

  step('Issue a virtual card');
  const created = await client.post<Card>(
    '/cards',
    { customerId: customer.id, form: 'VIRTUAL', fundingSources: [usd.id] },
    { idempotencyKey: uniqueRef('create-card') },
  );
  show('card', created.id);
  show('state', created.state);
  const card = await untilIssued(client, created.id);
  show('state', `${card.state} (${card.brand} •••• ${card.last4})`);

  step('Freeze the card (signed retry)');
  const frozen = await client.signed<Card>('PATCH', `/cards/${card.id}`, { state: 'FROZEN' }, session.stamper);
  check(frozen.state === 'FROZEN', `expected FROZEN, got ${frozen.state}`);
  show('state', frozen.state);
  const declined = await purchase(client, card.id).then(
    (t) => `${t.status}`,
    (error: unknown) => (error instanceof PaymentsApiError ? error.code : String(error)),
  );
  check(declined === 'CARD_PAUSED', `a frozen card's purchase was ${declined}`);
  show('purchase', `declined ${declined}`);

  step('Unfreeze the card (signed retry)');
  const active = await client.signed<Card>('PATCH', `/cards/${card.id}`, { state: 'ACTIVE' }, session.stamper);
  check(active.state === 'ACTIVE', `expected ACTIVE, got ${active.state}`);
  show('state', active.state);
  const approved = await purchase(client, card.id);
  check(approved.status === 'AUTHORIZED', `an active card's purchase was ${approved.status}`);
  show('purchase', `${approved.status} ${approved.id}`);

  return { customerId: customer.id, cardId: card.id, state: active.state, cardTransactionId: approved.id };
});

/** Moves the sandbox clock past the issuer's delay, then reads the card until it leaves PENDING_ISSUE. */
async function untilIssued(client: PaymentsClient, cardId: string): Promise<Card> {
  await client.post('/sandbox/clock/advance', { seconds: ISSUANCE_DELAY_SECONDS });
  for (let attempt = 0; attempt < 100; attempt++) {
    const card = await client.get<Card>(`/cards/${cardId}`);
    if (card.state !== 'PENDING_ISSUE') {
      check(card.state === 'ACTIVE', `the card was not issued: ${card.state} ${card.stateReason ?? ''}`);
      return card;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`card ${cardId} is still PENDING_ISSUE`);
}

/** A sandbox purchase of 5.00 USD at a coffee shop, as the card network would send it (declined: an error). */
function purchase(client: PaymentsClient, cardId: string): Promise<CardTransaction> {
  return client.post<CardTransaction>(`/sandbox/cards/${cardId}/simulate/authorization`, {
    amount: 500,
    currency: { code: 'USD' },
    merchant: { descriptor: 'CORNER COFFEE', mcc: '5814' },
  });
}
