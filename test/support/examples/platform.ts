import { money } from '../../e2e/money-support.js';
import type { Cardholder } from '../card-fixture.js';
import { poll } from '../poll.js';
import { pointWebhooksAt, type WebhookReceiver } from '../webhook-receiver.js';
import { enc, ok, type Tour } from './tour.js';

/**
 * The platform's own resources and the reading side: API tokens, the audit trail of a cardholder's card, customer,
 * account and payment, lookups and rates, the sandbox clock, and the public pages (health, docs, console).
 */
export async function platformTour({ t, api, anonymous, clock }: Tour, h: Cardholder): Promise<void> {
  const token = ok(await api.post('/tokens', { name: 'examples' }), 201).body;
  ok(await api.get('/tokens?limit=2'));
  ok(await api.get(`/tokens/${token.id}`));
  ok(await api.delete(`/tokens/${token.id}`), 204);
  // Receivers verifying with the replaced secret still accept deliveries during the grace period.
  ok(await api.post('/config/webhook-secret/rotate'));

  const paid = ok(await api.get(`/transactions?customerId=${enc(h.customerId)}&limit=1`)).body.data[0].id;
  const asOf = enc(clock.now().toISOString());
  ok(await api.get('/audit/overview'));
  ok(await api.get('/audit/set-aside-events?limit=2'));
  ok(await api.get(`/audit/customers/${enc(h.customerId)}/state?asOf=${asOf}`));
  ok(await api.get(`/audit/cards/${enc(h.cardId)}/history?limit=2`));
  ok(await api.get(`/audit/customers/${enc(h.customerId)}/history?limit=2`));
  ok(await api.get(`/audit/internal-accounts/${enc(h.usd)}/history?limit=2`));
  ok(await api.get(`/audit/transactions/${enc(paid)}/history?limit=2`));
  ok(await api.get(`/audit/transactions/${enc(paid)}/ledger`));
  ok(await api.get(`/card-transactions/${h.cardTransactionId}`));
  const period = {
    from: new Date(clock.now().getTime() - 300 * 86_400_000).toISOString(),
    to: clock.now().toISOString(),
  };
  const draft = { perAuthorizationLimit: 100, allowedMerchantCountries: ['US'] };
  ok(await api.post(`/cards/${enc(h.cardId)}/spending-controls/backtest`, { spendingControls: draft, ...period }));
  ok(await api.get(`/quotes?customerId=${enc(h.customerId)}&limit=2`));

  const m = money({ ...t, api });
  const ada = await m.customer(['USD', 'USDC']);
  ok(await api.get(`/receiver/uma/${enc('$success.EUR@uma.domain.com')}?customerId=${enc(ada.id)}`));
  const external = await m.external(ada.id, 'USD', '000');
  ok(await api.get(`/receiver/external-account/${external}`));
  ok(await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR'));
  ok(await api.get('/discoveries?country=PH&currency=PHP'));
  ok(await api.get('/uma-providers?limit=2'));
  ok(
    await api.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId: ada.accounts.USDC,
      currency: 'USDC',
      cryptoNetwork: 'SOLANA',
      amount: 1_000_000,
      destinationAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    }),
  );
  ok(await api.get('/sandbox/clock'));
  ok(await api.post('/sandbox/clock/advance', { seconds: 60 }));

  for (const path of [
    '/health',
    '/health/live',
    '/health/ready',
    '/openapi.json',
    '/docs',
    '/docs/assets/docs.js',
    '/docs/guides/wallet-sessions',
  ])
    ok(await anonymous.get(path), 200, path);
  for (const path of ['/dashboard', '/dashboard/assets/main.js']) ok(await anonymous.get(path), 200, path);
}

/**
 * A delivery that failed (the endpoint was turned off while it waited for its retry), then redelivered once the
 * endpoint is back.
 */
export async function redeliveryTour({ api, clock }: Tour, receiver: WebhookReceiver, usd: string): Promise<void> {
  const delivery = async (id: string) => ok(await api.get(`/webhooks/deliveries/${id}`)).body;
  await receiver.setMode('error');
  const before = ok(await api.get('/webhooks/deliveries?limit=1')).body.data[0]?.id;
  ok(await api.post(`/sandbox/internal-accounts/${usd}/fund`, { amount: 1 }));
  const latest = await poll(
    () => api.get('/webhooks/deliveries?limit=1'),
    (r) => r.body.data[0]?.id !== before && r.body.data[0].attemptCount >= 1,
    { what: 'a failed first attempt', timeoutMs: 10_000 },
  );
  const id = latest.body.data[0].id;
  ok(await api.patch('/config', { webhookEndpoint: null }));
  await receiver.setMode('ok');
  clock.advance(30 * 60_000);
  await poll(
    () => delivery(id),
    (d) => d.status === 'FAILED',
    { what: 'the delivery to fail', timeoutMs: 10_000 },
  );
  await pointWebhooksAt(api, receiver);
  ok(await api.post(`/webhooks/deliveries/${id}/redeliver`), 202);
}
