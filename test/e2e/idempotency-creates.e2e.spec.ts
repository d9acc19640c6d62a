import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '../../libs/domain/src/cards/card-issuer.js';
import { ManualClock } from '../../libs/domain/src/clock.js';
import { idempotencyStream } from '../../libs/domain/src/idempotency/idempotency.js';
import { available } from '../../libs/domain/src/ledger/ledger.js';
import { expectBalancedLedger, loadLedger } from '../support/ledger-check.js';
import { startTestService, type Client, type Reply, type TestService } from '../support/service.js';
import { openWalletAccount, signedRequest, startWalletSession } from '../support/wallet-session.js';
import { money } from './money-support.js';
import { googleClaims, sandboxToken } from './wallet-support.js';

/** A request of a case: path under the base path, and its JSON body (none for action endpoints). */
interface Req {
  path: string;
  body?: unknown;
}

interface Prepared {
  request: Req;
  /** Another request (other body, or other path for bodiless actions) sent with the same key: 422. */
  other: Req;
  /** A number the request changes exactly once: a count of resources, or a balance. */
  effect(): Promise<number>;
  delta: number;
  /** How the request is sent when it is not a plain POST (a signed retry). */
  send?(req: Req, headers: Record<string, string>): Promise<Reply>;
}

interface Case {
  /** The operation as the OpenAPI document names its path. */
  op: string;
  status: number;
  setup(): Promise<Prepared>;
}

/**
 * POSTs deliberately without Idempotency-Key, and why. Every other POST of the document must be
 * in the table below, so a new POST cannot be added without deciding.
 */
const EXCLUDED: Record<string, string> = {
  '/auth/credentials/{authMethodId}/challenge': 'each call must issue a fresh OTP or WebAuthn challenge; re-issues are rate limited',
  '/auth/credentials/{authMethodId}/verify': 'spends a one-time OTP, WebAuthn challenge or OIDC nonce; a retry needs a new proof anyway',
  '/auth/sessions/{sessionId}/refresh': 'signed retry whose result is a new session key sealed to a new client key',
  '/internal-accounts/{accountId}/export': 'signed retry returning wallet key material sealed to the client key; a retry exports again',
  '/sandbox/clock/advance': 'sandbox clock (per-platform clock work in progress); advancing is relative by design',
  '/webhooks/deliveries/{deliveryId}/redeliver': 'a redelivery is a new delivery attempt by design',
  '/sandbox/webhooks/test': 'sends a test webhook and reports the receiver; nothing is created or moved',
};

const START = Date.UTC(2026, 3, 6, 9);
const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

describe('Idempotency-Key on every POST that creates or moves something', () => {
  let t: TestService;
  let api: Client;
  let m: ReturnType<typeof money>;
  const clock = new ManualClock(START);
  let seq = 0;
  const unique = (name: string) => `${name}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
  const enc = encodeURIComponent;
  const total = async (path: string) => {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    return (res.body.totalCount ?? res.body.data.length) as number;
  };

  beforeAll(async () => {
    t = await startTestService({ clock });
    api = t.api;
    m = money(t);
  });
  afterAll(async () => t?.close());

  /** A customer with an email, a USD account and an EMBEDDED_WALLET in USD (card owner). */
  const holder = async () => {
    const c = await m.customer(['USD'], { email: `${unique('holder')}@example.com` });
    const wallet = await openWalletAccount(api, c.id, 'USD');
    return { ...c, wallet };
  };

  const activeCard = async (amount: number) => {
    const h = await holder();
    await m.fund(h.accounts.USD, amount);
    const created = await api.post('/cards', { customerId: h.id, form: 'VIRTUAL', fundingSources: [h.accounts.USD] });
    expect(created.status).toBe(201);
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    for (let i = 0; i < 500 && (await api.get(`/cards/${created.body.id}`)).body.state !== 'ACTIVE'; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await api.get(`/cards/${created.body.id}`)).body.state).toBe('ACTIVE');
    return { card: created.body.id as string, usd: h.accounts.USD };
  };
  const authorize = async (card: string, amount: number) => {
    const res = await api.post(`/sandbox/cards/${card}/simulate/authorization`, { amount, currency: 'USD', merchant });
    expect(res.body.status).toBe('APPROVED');
    return res.body.id as string;
  };

  const pendingIncoming = async () => {
    const c = await m.customer(['USD']);
    const receive = () => api.post('/sandbox/uma/receive', { senderUmaAddress: '$pending.long.USD@bank.example.com', customerId: c.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 7_000 });
    const [one, two] = [await receive(), await receive()];
    expect([one.body.status, two.body.status]).toEqual(['PENDING', 'PENDING']);
    return { c, one: one.body.id as string, two: two.body.id as string };
  };

  const inviter = async () => {
    const uma = `$${unique('inviter').replace(/-/g, '')}@sandbox.uma.local`;
    await m.customer(['USD'], { umaAddress: uma });
    const invite = async () => {
      const res = await api.post('/invitations', { inviterUma: uma });
      expect(res.status).toBe(201);
      return res.body.code as string;
    };
    return { uma, invite };
  };

  const cases: Case[] = [
    {
      op: '/customers',
      status: 201,
      setup: async () => {
        const platformCustomerId = unique('pc');
        const body = { customerType: 'INDIVIDUAL', platformCustomerId, fullName: 'Ada Lovelace' };
        return { request: { path: '/customers', body }, other: { path: '/customers', body: { ...body, fullName: 'Ada King' } }, effect: () => total(`/customers?platformCustomerId=${platformCustomerId}`), delta: 1 };
      },
    },
    {
      op: '/customers/internal-accounts',
      status: 201,
      setup: async () => {
        const c = await m.customer(['USD']);
        const body = { customerId: c.id, type: 'INTERNAL_FIAT', currency: 'EUR' };
        return { request: { path: '/customers/internal-accounts', body }, other: { path: '/customers/internal-accounts', body: { ...body, currency: 'MXN' } }, effect: () => total(`/customers/internal-accounts?customerId=${enc(c.id)}`), delta: 1 };
      },
    },
    {
      op: '/customers/external-accounts',
      status: 201,
      setup: async () => {
        const c = await m.customer(['USD']);
        const body = { customerId: c.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' } };
        const other = { ...body, accountInfo: { ...body.accountInfo, accountNumber: '123456788' } };
        return { request: { path: '/customers/external-accounts', body }, other: { path: '/customers/external-accounts', body: other }, effect: () => total(`/customers/external-accounts?customerId=${enc(c.id)}`), delta: 1 };
      },
    },
    {
      op: '/platform/external-accounts',
      status: 201,
      setup: async () => {
        const body = { currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `${Date.now()}`.slice(-9), routingNumber: '021000021' } };
        const other = { ...body, currency: 'USD', accountInfo: { ...body.accountInfo, routingNumber: '011000015' } };
        return { request: { path: '/platform/external-accounts', body }, other: { path: '/platform/external-accounts', body: other }, effect: () => total('/platform/external-accounts?limit=100'), delta: 1 };
      },
    },
    {
      op: '/cards',
      status: 201,
      setup: async () => {
        const h = await holder();
        const body = { customerId: h.id, form: 'VIRTUAL', fundingSources: [h.accounts.USD] };
        return { request: { path: '/cards', body }, other: { path: '/cards', body: { ...body, platformCardId: unique('card') } }, effect: () => total(`/cards?customerId=${enc(h.id)}`), delta: 1 };
      },
    },
    {
      op: '/tokens',
      status: 201,
      setup: async () => ({ request: { path: '/tokens', body: { name: 'ci' } }, other: { path: '/tokens', body: { name: 'cd' } }, effect: () => total('/tokens?limit=100'), delta: 1 }),
    },
    {
      op: '/verifications',
      status: 201,
      setup: async () => {
        const [c, d] = [await m.customer(['USD']), await m.customer(['USD'])];
        return { request: { path: '/verifications', body: { customerId: c.id } }, other: { path: '/verifications', body: { customerId: d.id } }, effect: () => total(`/verifications?customerId=${enc(c.id)}`), delta: 1 };
      },
    },
    {
      op: '/invitations',
      status: 201,
      setup: async () => {
        const { uma } = await inviter();
        return { request: { path: '/invitations', body: { inviterUma: uma, firstName: 'Bob' } }, other: { path: '/invitations', body: { inviterUma: uma, firstName: 'Rob' } }, effect: () => total(`/invitations?inviterUma=${enc(uma)}`), delta: 1 };
      },
    },
    {
      op: '/invitations/{invitationCode}/cancel',
      status: 200,
      setup: async () => {
        const { uma, invite } = await inviter();
        const [one, two] = [await invite(), await invite()];
        return { request: { path: `/invitations/${one}/cancel` }, other: { path: `/invitations/${two}/cancel` }, effect: () => total(`/invitations?inviterUma=${enc(uma)}&status=CANCELLED`), delta: 1 };
      },
    },
    {
      op: '/invitations/{invitationCode}/claim',
      status: 200,
      setup: async () => {
        const { uma, invite } = await inviter();
        const path = `/invitations/${await invite()}/claim`;
        return { request: { path, body: { inviteeUma: '$bob@other.example.com' } }, other: { path, body: { inviteeUma: '$rob@other.example.com' } }, effect: () => total(`/invitations?inviterUma=${enc(uma)}&status=CLAIMED`), delta: 1 };
      },
    },
    {
      op: '/auth/credentials',
      status: 201,
      setup: async () => {
        const h = await holder();
        const session = await startWalletSession(api, h.wallet.accountId, h.wallet.emailOtpId);
        const oauth = (sub: string) => ({ type: 'OAUTH', accountId: h.wallet.accountId, oidcToken: sandboxToken(googleClaims(clock.now().getTime(), { sub })) });
        const oauthCount = async () => (await api.get(`/auth/credentials?accountId=${enc(h.wallet.accountId)}`)).body.data.filter((c: any) => c.type === 'OAUTH').length;
        return {
          request: { path: '/auth/credentials', body: oauth('google-1') },
          other: { path: '/auth/credentials', body: oauth('google-2') },
          effect: oauthCount,
          delta: 1,
          send: async (req, headers) => (await signedRequest(keyed(headers), 'POST', req.path, req.body, session)).result,
        };
      },
    },
    {
      op: '/transfer-in',
      status: 201,
      setup: async () => {
        const c = await m.customer(['USD']);
        const ext = await m.external(c.id, 'USD', '777');
        const body = { source: { accountId: ext }, destination: { accountId: c.accounts.USD }, amount: 500 };
        return { request: { path: '/transfer-in', body }, other: { path: '/transfer-in', body: { ...body, amount: 501 } }, effect: () => m.balance(c.accounts.USD), delta: 500 };
      },
    },
    {
      op: '/transfer-out',
      status: 201,
      setup: async () => {
        const c = await m.customer(['USD']);
        await m.fund(c.accounts.USD, 5_000);
        const ext = await m.external(c.id, 'USD', '777');
        const body = { source: { accountId: c.accounts.USD }, destination: { accountId: ext }, amount: 2_000 };
        return { request: { path: '/transfer-out', body }, other: { path: '/transfer-out', body: { ...body, amount: 2_001 } }, effect: () => m.balance(c.accounts.USD), delta: -2_000 };
      },
    },
    {
      op: '/transactions/{transactionId}/approve',
      status: 200,
      setup: async () => {
        const { c, one, two } = await pendingIncoming();
        return { request: { path: `/transactions/${one}/approve` }, other: { path: `/transactions/${two}/approve` }, effect: () => m.balance(c.accounts.USD), delta: 7_000 };
      },
    },
    {
      op: '/transactions/{transactionId}/reject',
      status: 200,
      setup: async () => {
        const { c, one, two } = await pendingIncoming();
        return { request: { path: `/transactions/${one}/reject` }, other: { path: `/transactions/${two}/reject` }, effect: () => total(`/transactions?customerId=${enc(c.id)}&status=REJECTED`), delta: 1 };
      },
    },
    {
      op: '/sandbox/internal-accounts/{accountId}/fund',
      status: 200,
      setup: async () => {
        const c = await m.customer(['USD']);
        const path = `/sandbox/internal-accounts/${c.accounts.USD}/fund`;
        return { request: { path, body: { amount: 1_000 } }, other: { path, body: { amount: 1_001 } }, effect: () => m.balance(c.accounts.USD), delta: 1_000 };
      },
    },
    {
      op: '/sandbox/send',
      status: 200,
      setup: async () => {
        const c = await m.customer(['USD', 'EUR']);
        const ext = await m.external(c.id, 'USD', '444');
        const q = (await m.accountQuote(ext, c.accounts.EUR, 20_000)).body;
        const body = { quoteId: q.id, currencyCode: 'USD' };
        return { request: { path: '/sandbox/send', body }, other: { path: '/sandbox/send', body: { ...body, currencyAmount: q.totalSendingAmount } }, effect: () => m.balance(c.accounts.EUR), delta: q.totalReceivingAmount };
      },
    },
    {
      op: '/sandbox/uma/receive',
      status: 201,
      setup: async () => {
        const c = await m.customer(['USD']);
        const body = { senderUmaAddress: '$alice@other.example.com', customerId: c.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 7_000 };
        return { request: { path: '/sandbox/uma/receive', body }, other: { path: '/sandbox/uma/receive', body: { ...body, receivingCurrencyAmount: 7_001 } }, effect: () => m.balance(c.accounts.USD), delta: 7_000 };
      },
    },
    {
      op: '/sandbox/cards/{cardId}/simulate/authorization',
      status: 201,
      setup: async () => {
        const { card, usd } = await activeCard(5_000);
        const path = `/sandbox/cards/${card}/simulate/authorization`;
        const free = async () => Number(available((await loadLedger(t.service.infra.eventStore, t.service.sandbox!.platformId)).accounts.get(usd)!));
        return { request: { path, body: { amount: 800, currency: 'USD', merchant } }, other: { path, body: { amount: 801, currency: 'USD', merchant } }, effect: free, delta: -800 };
      },
    },
    {
      op: '/sandbox/cards/{cardId}/simulate/clearing',
      status: 200,
      setup: async () => {
        const { card, usd } = await activeCard(5_000);
        const authorizationId = await authorize(card, 800);
        const path = `/sandbox/cards/${card}/simulate/clearing`;
        return { request: { path, body: { authorizationId } }, other: { path, body: { authorizationId, amount: 700 } }, effect: () => m.balance(usd), delta: -800 };
      },
    },
    {
      op: '/sandbox/cards/{cardId}/simulate/return',
      status: 200,
      setup: async () => {
        const { card, usd } = await activeCard(5_000);
        const authorizationId = await authorize(card, 800);
        expect((await api.post(`/sandbox/cards/${card}/simulate/clearing`, { authorizationId })).status).toBe(200);
        const path = `/sandbox/cards/${card}/simulate/return`;
        return { request: { path, body: { authorizationId, amount: 300 } }, other: { path, body: { authorizationId, amount: 200 } }, effect: () => m.balance(usd), delta: 300 };
      },
    },
    {
      op: '/quotes',
      status: 201,
      setup: async () => {
        const [a, b] = [await m.customer(['USD']), await m.customer(['USD'])];
        const body = { source: { sourceType: 'ACCOUNT', accountId: a.accounts.USD }, destination: { destinationType: 'ACCOUNT', accountId: b.accounts.USD }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 900 };
        return { request: { path: '/quotes', body }, other: { path: '/quotes', body: { ...body, lockedCurrencyAmount: 901 } }, effect: () => total(`/quotes?customerId=${enc(a.id)}`), delta: 1 };
      },
    },
    {
      op: '/quotes/{quoteId}/execute',
      status: 200,
      setup: async () => {
        const [a, b] = [await m.customer(['USD']), await m.customer(['USD'])];
        await m.fund(a.accounts.USD, 5_000);
        const [one, two] = [(await m.accountQuote(a.accounts.USD, b.accounts.USD, 1_000)).body.id, (await m.accountQuote(a.accounts.USD, b.accounts.USD, 1_000)).body.id];
        return { request: { path: `/quotes/${one}/execute` }, other: { path: `/quotes/${two}/execute` }, effect: () => m.balance(a.accounts.USD), delta: -1_000 };
      },
    },
  ];

  /** The platform's client with the key added to every request (for the signed-retry helper). */
  const keyed = (headers: Record<string, string>): Client => ({
    ...api,
    request: (method, path, body, extra = {}) => api.request(method, path, body, { ...headers, ...extra }),
  });
  const send = (p: Prepared, req: Req, headers: Record<string, string>) => (p.send ? p.send(req, headers) : api.post(req.path, req.body, headers));

  it.each(cases.map((c) => [c.op, c] as const))('POST %s: one run per key, the first response replayed, 422 for another request', async (_op, c) => {
    const p = await c.setup();
    const before = await p.effect();
    const headers = { 'idempotency-key': unique('key') };
    const first = await send(p, p.request, headers);
    expect({ status: first.status, replayed: first.headers.get('idempotent-replayed') }).toEqual({ status: c.status, replayed: null });
    const again = await send(p, p.request, headers);
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await p.effect()).toBe(before + p.delta);
    const reused = await send(p, p.other, headers);
    expect({ status: reused.status, code: reused.body.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await p.effect()).toBe(before + p.delta);
  });

  it('keeps the ledger balanced after all of them', async () => {
    await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
  });

  it('declares Idempotency-Key on exactly these operations, and every other POST is excluded for a reason', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    const posts = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([, ops]) => ops.post).map(([path, ops]) => [path, ops.post] as const);
    const declaring = posts.filter(([, op]) => (op.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key' && p.in === 'header')).map(([path]) => path);
    expect(declaring.sort()).toEqual(cases.map((c) => c.op).sort());
    for (const [path, op] of posts) {
      if (!declaring.includes(path)) expect({ path, reason: typeof EXCLUDED[path] }).toEqual({ path, reason: 'string' });
      else expect({ path, statuses: Object.keys(op.responses) }).toEqual({ path, statuses: expect.arrayContaining(['422']) });
    }
  });

  it('seals stored responses: a new token’s secret is replayed but never lands in the event log in clear', async () => {
    const headers = { 'idempotency-key': unique('token') };
    const first = await api.post('/tokens', { name: 'sealed' }, headers);
    expect(first.body.clientSecret).toEqual(expect.any(String));
    const again = await api.post('/tokens', { name: 'sealed' }, headers);
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    const events = await t.service.infra.eventStore.readStream(idempotencyStream(t.service.sandbox!.platformId, headers['idempotency-key']));
    expect(events.map((e) => e.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotentResponseRecorded']);
    const stored = JSON.stringify(events.map((e) => ({ data: e.data, metadata: e.metadata })));
    expect(stored).toContain('sealedBody');
    expect(stored).not.toContain(first.body.clientSecret);
    expect(stored).not.toContain(first.body.id);
  });

  it('signed retry: the 202 challenge does not spend the key; the signed step is recorded and replayed, never run twice', async () => {
    const h = await holder();
    const session = await startWalletSession(api, h.wallet.accountId, h.wallet.emailOtpId);
    const body = { type: 'OAUTH', accountId: h.wallet.accountId, oidcToken: sandboxToken(googleClaims(clock.now().getTime(), { sub: 'google-signed' })) };
    const headers = { 'idempotency-key': unique('signed') };
    const stream = idempotencyStream(t.service.sandbox!.platformId, headers['idempotency-key']);
    const challenge = await api.post('/auth/credentials', body, headers);
    expect(challenge.status).toBe(202);
    expect((await t.service.infra.eventStore.readStream(stream)).map((e) => e.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotencyKeyReleased']);
    const signed = { ...headers, 'service-wallet-signature': await session.stamp(challenge.body.payloadToSign), 'request-id': challenge.body.requestId };
    const added = await api.post('/auth/credentials', body, signed);
    expect(added.status).toBe(201);
    // The same signed request again: without the key it would be refused (request id spent); with it, the stored answer.
    const retried = await api.post('/auth/credentials', body, signed);
    expect({ status: retried.status, body: retried.body, replayed: retried.headers.get('idempotent-replayed') }).toEqual({ status: 201, body: added.body, replayed: 'true' });
    expect((await api.post('/auth/credentials', body, headers)).body).toEqual(added.body);
    expect((await api.post('/auth/credentials', body, { 'service-wallet-signature': signed['service-wallet-signature'], 'request-id': challenge.body.requestId })).status).toBe(401);
    const oauth = (await api.get(`/auth/credentials?accountId=${enc(h.wallet.accountId)}`)).body.data.filter((c: any) => c.type === 'OAUTH');
    expect(oauth).toHaveLength(1);
  });
});
