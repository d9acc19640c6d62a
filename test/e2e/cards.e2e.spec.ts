import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '../../libs/domain/src/cards/card-issuer.js';
import { ManualClock } from '../../libs/domain/src/clock.js';
import { streams } from '../../libs/domain/src/ids.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { signedRequest, walletSession, type WalletSession } from '../support/wallet-session.js';

const START = Date.UTC(2026, 0, 5, 12);
const CARD_ID = /^Card:[0-9a-f-]{36}$/;

interface Holder {
  customerId: string;
  usd: string;
  eur: string;
  wallet: WalletSession;
}

describe('cards over HTTP: lifecycle, funding sources, signed PATCH', () => {
  let t: TestService;
  let api: Client;
  const clock = new ManualClock(START);
  let n = 0;

  beforeAll(async () => {
    t = await startTestService({ clock });
    api = t.api;
  });
  afterAll(async () => t?.close());

  async function holder(fullName = 'Ada Lovelace'): Promise<Holder> {
    n += 1;
    const c = await api.post('/customers', {
      platformCustomerId: `holder-${n}`,
      customerType: 'INDIVIDUAL',
      fullName,
      email: `holder${n}@example.com`,
      currencies: ['USD', 'EUR'],
    });
    expect(c.status).toBe(201);
    const accounts = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`)).body
      .data;
    const fiat = (code: string) => accounts.find((a: any) => a.balance.currency.code === code).id;
    return {
      customerId: c.body.id,
      usd: fiat('USD'),
      eur: fiat('EUR'),
      wallet: await walletSession(api, c.body.id, 'USD'),
    };
  }

  async function card(h: Holder, body: Record<string, unknown> = {}) {
    const res = await api.post('/cards', {
      customerId: h.customerId,
      form: 'VIRTUAL',
      fundingSources: [h.usd, h.wallet.accountId],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const get = async (id: string) => (await api.get(`/cards/${id}`)).body;

  /** Lets the sandbox issuer answer: the provisioning timer is due after the delay on the clock. */
  async function provision(id: string) {
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    return until(
      () => get(id),
      (c) => c.state !== 'PENDING_ISSUE',
      `card ${id} to leave PENDING_ISSUE`,
    );
  }

  async function activeCard(h: Holder, body: Record<string, unknown> = {}) {
    const c = await card(h, body);
    expect((await provision(c.id)).state).toBe('ACTIVE');
    return get(c.id);
  }

  const patch = (id: string, body: Record<string, unknown>, session: WalletSession) =>
    signedRequest(api, 'PATCH', `/cards/${id}`, body, session);
  const cardEvents = async (id: string) => t.service.infra.eventStore.readStream(streams.card(id));

  it('requests a card PENDING_ISSUE and the sandbox issuer activates it when the timer is due', async () => {
    const h = await holder();
    const c = await card(h, { platformCardId: 'my-card-1' });
    expect(c).toEqual({
      id: expect.stringMatching(CARD_ID),
      customerId: h.customerId,
      state: 'PENDING_ISSUE',
      stateReason: null,
      form: 'VIRTUAL',
      fundingSources: [h.usd, h.wallet.accountId],
      platformCardId: 'my-card-1',
      brand: expect.stringMatching(/^(VISA|MASTERCARD)$/),
      last4: null,
      expMonth: null,
      expYear: null,
      panEmbedUrl: null,
      currency: 'USD',
      issuerRef: expect.stringMatching(/^iss_[0-9a-f]{24}$/),
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(await get(c.id)).toEqual(c);
    // Not due yet: the timer waits on the (sandbox) clock.
    clock.advance(CARD_ISSUANCE_DELAY_MS - 1);
    await t.service.infra.jobs.promoteDue();
    expect((await t.service.infra.jobs.getJob('card-provisioning', `issue:${c.id}`))?.state).toBe('delayed');
    expect((await get(c.id)).state).toBe('PENDING_ISSUE');
    clock.advance(1);
    await t.service.infra.jobs.promoteDue();
    const active = await until(
      () => get(c.id),
      (x) => x.state === 'ACTIVE',
      'activation',
    );
    expect(active).toMatchObject({
      state: 'ACTIVE',
      stateReason: null,
      expMonth: 1,
      expYear: 2029,
      updatedAt: clock.now().toISOString(),
    });
    expect(active.last4).toMatch(/^\d{4}$/);
    expect(active.panEmbedUrl).toMatch(/^https:\/\/.+\?token=[A-Za-z0-9_-]+$/);
    expect(JSON.stringify(active)).not.toMatch(/\d{13,19}/); // no PAN anywhere
    const events = await cardEvents(c.id);
    expect(events.map((e) => e.type)).toEqual(['CardCreated', 'CardStateChanged']);
    expect(events[1].data).toMatchObject({
      platformId: t.service.sandbox!.platformId,
      previousState: 'PENDING_ISSUE',
      card: active,
    });
  });

  it('generates a platformCardId when none is given', async () => {
    const c = await card(await holder());
    expect(c.platformCardId).toMatch(/^card_[0-9a-f]{20}$/);
  });

  it(
    'closes the card with ISSUER_REJECTED when the sandbox issuer rejects it (platformCardId ' + 'ending in 002)',
    async () => {
      const h = await holder();
      const c = await card(h, { platformCardId: 'reject-002' });
      const rejected = await provision(c.id);
      expect(rejected).toMatchObject({
        state: 'CLOSED',
        stateReason: 'ISSUER_REJECTED',
        fundingSources: [],
        last4: null,
        panEmbedUrl: null,
      });
      const refused = await api.patch(`/cards/${c.id}`, { state: 'ACTIVE' });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('INVALID_STATE_TRANSITION');
    },
  );

  it('validates POST /cards and changes nothing when it refuses', async () => {
    const h = await holder();
    const other = await holder();
    const before = (await api.get(`/cards?customerId=${encodeURIComponent(h.customerId)}`)).body.totalCount;
    const refuse = async (body: Record<string, unknown>, status: number, code: string, field?: string) => {
      const res = await api.post('/cards', {
        customerId: h.customerId,
        form: 'VIRTUAL',
        fundingSources: [h.usd],
        ...body,
      });
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
      if (field) expect(res.body.details.errors.map((e: any) => e.field)).toContain(field);
    };
    await refuse({ form: 'PHYSICAL' }, 400, 'INVALID_INPUT', 'form');
    await refuse({ form: undefined }, 400, 'INVALID_INPUT', 'form');
    await refuse({ fundingSources: [] }, 400, 'INVALID_INPUT', 'fundingSources');
    await refuse({ fundingSources: ['acct-1'] }, 400, 'INVALID_INPUT', 'fundingSources');
    await refuse({ brand: 'VISA' }, 400, 'INVALID_INPUT', 'brand');
    await refuse({ fundingSources: [h.usd, h.usd] }, 400, 'DUPLICATE_FUNDING_SOURCE', 'fundingSources[1]');
    await refuse({ fundingSources: [h.usd, other.usd] }, 400, 'FUNDING_SOURCE_NOT_OWNED', 'fundingSources[1]');
    await refuse({ fundingSources: [h.usd, h.eur] }, 400, 'FUNDING_SOURCE_CURRENCY_MISMATCH', 'fundingSources[1]');
    // Funded in EUR, but the holder's wallet (whose sessions sign card changes) is in USD.
    await refuse({ fundingSources: [h.eur] }, 400, 'CARDHOLDER_WALLET_REQUIRED', 'customerId');
    await refuse({ customerId: 'Customer:00000000-0000-4000-8000-000000000000' }, 404, 'CUSTOMER_NOT_FOUND');
    const foreign = await t.otherPlatform();
    const res = await foreign.api.post('/cards', {
      customerId: h.customerId,
      form: 'VIRTUAL',
      fundingSources: [h.usd],
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    expect((await api.get(`/cards?customerId=${encodeURIComponent(h.customerId)}`)).body.totalCount).toBe(before);
  });

  describe('the card state table', () => {
    let h: Holder;
    beforeAll(async () => {
      h = await holder();
    });

    it('ACTIVE -> FROZEN -> ACTIVE with a signed retry, each emitting CardStateChanged with the snapshot', async () => {
      const c = await activeCard(h);
      const freeze = await patch(c.id, { state: 'FROZEN' }, h.wallet);
      expect(freeze.challenge.status).toBe(202);
      expect(freeze.result.status).toBe(200);
      expect(freeze.result.body).toMatchObject({
        id: c.id,
        state: 'FROZEN',
        stateReason: null,
        fundingSources: c.fundingSources,
      });
      const unfreeze = await patch(c.id, { state: 'ACTIVE' }, h.wallet);
      expect(unfreeze.result.status).toBe(200);
      expect(unfreeze.result.body.state).toBe('ACTIVE');
      expect(await get(c.id)).toEqual(unfreeze.result.body);
      const changes = (await cardEvents(c.id)).filter((e) => e.type === 'CardStateChanged').slice(-2);
      expect(changes.map((e) => e.data)).toEqual([
        { platformId: t.service.sandbox!.platformId, cardId: c.id, previousState: 'ACTIVE', card: freeze.result.body },
        {
          platformId: t.service.sandbox!.platformId,
          cardId: c.id,
          previousState: 'FROZEN',
          card: unfreeze.result.body,
        },
      ]);
      expect(changes[0].metadata).toMatchObject({ walletSessionId: h.wallet.sessionId });
    });

    it.each(['ACTIVE', 'FROZEN'])(
      '%s -> CLOSED: CLOSED_BY_PLATFORM, bindings detached, card kept, terminal',
      async (from) => {
        const c = await activeCard(h);
        if (from === 'FROZEN') expect((await patch(c.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
        const closed = await patch(c.id, { state: 'CLOSED' }, h.wallet);
        expect(closed.result.status).toBe(200);
        expect(closed.result.body).toMatchObject({
          state: 'CLOSED',
          stateReason: 'CLOSED_BY_PLATFORM',
          fundingSources: [],
          last4: c.last4,
        });
        expect((await api.get(`/cards/${c.id}`)).status).toBe(200);
        expect(
          (await api.get(`/cards?accountId=${encodeURIComponent(h.usd)}&state=CLOSED`)).body.data.map((x: any) => x.id),
        ).not.toContain(c.id);
        const last = (await cardEvents(c.id)).at(-1)!;
        expect(last).toMatchObject({
          type: 'CardStateChanged',
          data: { previousState: from, card: { state: 'CLOSED' } },
        });
      },
    );

    it('answers 409 INVALID_STATE_TRANSITION for every other requested transition, before any challenge', async () => {
      const pendingKyc = await card(await holder('Lin Wu001'));
      const active = await activeCard(h);
      const frozen = await activeCard(h);
      expect((await patch(frozen.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
      const closed = await activeCard(h);
      expect((await patch(closed.id, { state: 'CLOSED' }, h.wallet)).result.status).toBe(200);
      // Last: provisioning of the others moved the clock, this one's timer is not due yet.
      const pendingIssue = await card(h);
      const cases: [string, string, string][] = [
        ['PENDING_KYC', pendingKyc.id, 'ACTIVE'],
        ['PENDING_KYC', pendingKyc.id, 'FROZEN'],
        ['PENDING_KYC', pendingKyc.id, 'CLOSED'],
        ['PENDING_ISSUE', pendingIssue.id, 'ACTIVE'],
        ['PENDING_ISSUE', pendingIssue.id, 'FROZEN'],
        ['PENDING_ISSUE', pendingIssue.id, 'CLOSED'],
        ['ACTIVE', active.id, 'ACTIVE'],
        ['FROZEN', frozen.id, 'FROZEN'],
        ['CLOSED', closed.id, 'ACTIVE'],
        ['CLOSED', closed.id, 'FROZEN'],
        ['CLOSED', closed.id, 'CLOSED'],
      ];
      for (const [from, id, to] of cases) {
        const before = (await cardEvents(id)).length;
        const res = await api.patch(`/cards/${id}`, { state: to });
        expect({ from, to, status: res.status, code: res.body.code }).toEqual({
          from,
          to,
          status: 409,
          code: 'INVALID_STATE_TRANSITION',
        });
        expect((await cardEvents(id)).length).toBe(before);
        expect((await get(id)).state).toBe(from);
      }
      const fundingOnClosed = await api.patch(`/cards/${closed.id}`, { fundingSources: [h.usd] });
      expect({ status: fundingOnClosed.status, code: fundingOnClosed.body.code }).toEqual({
        status: 409,
        code: 'INVALID_STATE_TRANSITION',
      });
    });

    it('decides again on the signed step: a transition that became invalid after the challenge is a 409', async () => {
      const c = await activeCard(h);
      const first = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
      expect(first.status).toBe(202);
      expect((await patch(c.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
      const late = await api.patch(
        `/cards/${c.id}`,
        { state: 'FROZEN' },
        {
          'service-wallet-signature': await h.wallet.stamp(first.body.payloadToSign),
          'request-id': first.body.requestId,
        },
      );
      expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      expect((await get(c.id)).state).toBe('FROZEN');
    });
  });

  describe('funding sources on PATCH', () => {
    it('replaces the ordered binding as a whole and emits CardFundingSourcesChanged', async () => {
      const h = await holder();
      const c = await activeCard(h);
      const res = await patch(c.id, { fundingSources: [h.wallet.accountId, h.usd] }, h.wallet);
      expect(res.result.status).toBe(200);
      expect(res.result.body).toMatchObject({ state: 'ACTIVE', fundingSources: [h.wallet.accountId, h.usd] });
      const single = await patch(c.id, { fundingSources: [h.wallet.accountId] }, h.wallet);
      expect(single.result.body.fundingSources).toEqual([h.wallet.accountId]);
      const changed = (await cardEvents(c.id)).filter((e) => e.type === 'CardFundingSourcesChanged');
      expect(changed.map((e) => e.data)).toEqual([
        {
          platformId: t.service.sandbox!.platformId,
          cardId: c.id,
          previousFundingSources: [h.usd, h.wallet.accountId],
          card: res.result.body,
        },
        {
          platformId: t.service.sandbox!.platformId,
          cardId: c.id,
          previousFundingSources: [h.wallet.accountId, h.usd],
          card: single.result.body,
        },
      ]);
      expect(
        (await api.get(`/cards?accountId=${encodeURIComponent(h.usd)}`)).body.data.map((x: any) => x.id),
      ).not.toContain(c.id);
      // State and funding sources together: both change.
      const both = await patch(c.id, { state: 'FROZEN', fundingSources: [h.usd] }, h.wallet);
      expect(both.result.body).toMatchObject({ state: 'FROZEN', fundingSources: [h.usd] });
    });

    it('refuses every broken rule with 400 before a challenge, changing nothing', async () => {
      const h = await holder();
      const other = await holder();
      const c = await activeCard(h);
      const before = (await cardEvents(c.id)).length;
      const refuse = async (body: Record<string, unknown>, code: string, field: string) => {
        const res = await api.patch(`/cards/${c.id}`, body);
        expect({
          status: res.status,
          code: res.body.code,
          fields: res.body.details?.errors?.map((e: any) => e.field),
        }).toEqual({ status: 400, code, fields: expect.arrayContaining([field]) });
      };
      await refuse({ fundingSources: [] }, 'INVALID_INPUT', 'fundingSources');
      await refuse({}, 'INVALID_INPUT', 'state');
      await refuse({ state: 'PENDING_ISSUE' }, 'INVALID_INPUT', 'state');
      await refuse({ state: 'CLOSED', fundingSources: [h.usd] }, 'INVALID_INPUT', 'fundingSources');
      await refuse({ fundingSources: [other.usd] }, 'FUNDING_SOURCE_NOT_OWNED', 'fundingSources[0]');
      await refuse(
        { fundingSources: ['InternalAccount:00000000-0000-4000-8000-000000000000'] },
        'FUNDING_SOURCE_NOT_OWNED',
        'fundingSources[0]',
      );
      await refuse({ fundingSources: [h.eur] }, 'FUNDING_SOURCE_CURRENCY_MISMATCH', 'fundingSources[0]');
      await refuse({ fundingSources: [h.usd, h.eur] }, 'FUNDING_SOURCE_CURRENCY_MISMATCH', 'fundingSources[1]');
      await refuse({ fundingSources: [h.usd, h.usd] }, 'DUPLICATE_FUNDING_SOURCE', 'fundingSources[1]');
      expect((await cardEvents(c.id)).length).toBe(before);
      expect((await get(c.id)).fundingSources).toEqual(c.fundingSources);
    });
  });

  describe('PATCH /cards/{id} as a signed retry', () => {
    it(
      'answers 202 without a signature, 200 with a stamp from the owning wallet, 401 with another ' +
        'account’s session',
      async () => {
        const h = await holder();
        const stranger = await holder();
        const c = await activeCard(h);
        const challenge = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
        expect(challenge.status).toBe(202);
        expect(challenge.body).toEqual({
          payloadToSign: expect.any(String),
          requestId: expect.stringMatching(/^Request:/),
          expiresAt: expect.any(String),
        });
        const payload = JSON.parse(challenge.body.payloadToSign);
        expect(payload).toMatchObject({
          operation: `PATCH /cards/${c.id}`,
          targetId: c.id,
          accountId: h.wallet.accountId,
          body: { state: 'FROZEN' },
        });
        expect((await get(c.id)).state).toBe('ACTIVE');

        const headers = async (session: WalletSession, first = challenge) => ({
          'service-wallet-signature': await session.stamp(first.body.payloadToSign),
          'request-id': first.body.requestId,
        });
        const foreign = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' }, await headers(stranger.wallet));
        expect(foreign.status).toBe(401);
        expect(foreign.body.reason).toEqual(expect.any(String));
        expect((await get(c.id)).state).toBe('ACTIVE');

        const second = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
        const mismatch = await api.patch(`/cards/${c.id}`, { state: 'CLOSED' }, await headers(h.wallet, second));
        expect(mismatch.status).toBe(401);
        expect((await get(c.id)).state).toBe('ACTIVE');

        const third = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
        const ok = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' }, await headers(h.wallet, third));
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ id: c.id, state: 'FROZEN' });
        const replay = await api.patch(`/cards/${c.id}`, { state: 'ACTIVE' }, await headers(h.wallet, third));
        expect(replay.status).toBe(401);
        expect((await get(c.id)).state).toBe('FROZEN');
      },
    );

    it('keeps cards of other platforms invisible', async () => {
      const h = await holder();
      const c = await card(h);
      const foreign = await t.otherPlatform();
      for (const res of [
        await foreign.api.get(`/cards/${c.id}`),
        await foreign.api.patch(`/cards/${c.id}`, { state: 'FROZEN' }),
      ]) {
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'CARD_NOT_FOUND' });
      }
      expect((await foreign.api.get('/cards')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
      expect((await api.get('/cards/Card:00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await api.get('/cards/not-a-card')).status).toBe(400);
    });
  });

  it('lists cards with every filter, both sort orders, cursor pagination and totalCount', async () => {
    const h = await holder();
    const a = await activeCard(h, { platformCardId: 'list-a' });
    clock.advance(1000);
    const b = await card(h, { platformCardId: 'list-b', fundingSources: [h.wallet.accountId] });
    clock.advance(1000);
    const c = await card(h, { platformCardId: 'list-c', fundingSources: [h.usd] });
    const ids = async (query: string) => {
      const res = await api.get(`/cards?${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const q = `customerId=${encodeURIComponent(h.customerId)}`;
    expect((await ids(q)).data.map((x: any) => x.id)).toEqual([c.id, b.id, a.id]);
    expect((await ids(`${q}&sortOrder=asc`)).data.map((x: any) => x.id)).toEqual([a.id, b.id, c.id]);
    expect((await ids(`${q}&accountId=${encodeURIComponent(h.usd)}`)).data.map((x: any) => x.id)).toEqual([c.id, a.id]);
    expect((await ids(`${q}&accountId=${encodeURIComponent(h.wallet.accountId)}`)).data.map((x: any) => x.id)).toEqual([
      b.id,
      a.id,
    ]);
    expect((await ids('platformCardId=list-b')).data.map((x: any) => x.id)).toEqual([b.id]);
    expect((await ids(`${q}&state=ACTIVE`)).data.map((x: any) => x.id)).toEqual([a.id]);
    expect((await ids(`${q}&state=PENDING_ISSUE`)).totalCount).toBe(2);
    const page1 = await ids(`${q}&limit=2&sortOrder=asc`);
    expect(page1).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(page1.data.map((x: any) => x.id)).toEqual([a.id, b.id]);
    const page2 = await ids(`${q}&limit=2&sortOrder=asc&cursor=${encodeURIComponent(page1.nextCursor)}`);
    expect(page2).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(page2.data.map((x: any) => x.id)).toEqual([c.id]);
    for (const bad of [
      'limit=0',
      'limit=101',
      'state=OPEN',
      'sortOrder=up',
      'customerId=abc',
      'accountId=abc',
      'color=red',
    ]) {
      expect((await api.get(`/cards?${bad}`)).status).toBe(400);
    }
  });

  it('documents the card routes and schemas in the OpenAPI document', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/cards', '/cards/{cardId}', '/sandbox/cards/{cardId}/simulate/authorization']),
    );
    expect(doc.paths['/cards/{cardId}'].patch.responses['202']).toBeDefined();
    expect(doc.components.schemas.Card.properties.form.enum).toEqual(['VIRTUAL']);
  });
});
