import { describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { cardsHarness } from './cards-support.js';

const START = Date.UTC(2026, 0, 5, 12);
const CARD_ID = /^Card:[0-9a-f-]{36}$/;

describe('cards over HTTP: lifecycle, funding sources, signed PATCH', () => {
  const kit = cardsHarness(START);

  it('requests a card PENDING_ISSUE and the sandbox issuer activates it when the timer is due', async () => {
    const h = await kit.holder();
    const c = await kit.card(h, { platformCardId: 'my-card-1' });
    expect(c).toEqual({
      id: expect.stringMatching(CARD_ID),
      customerId: h.customerId,
      state: 'PENDING_ISSUE',
      stateReason: null,
      form: 'VIRTUAL',
      fundingSources: [h.usd, h.wallet.accountId],
      platformCardId: 'my-card-1',
      brand: expect.stringMatching(/^(VISA|MASTERCARD)$/),
      currency: 'USD',
      issuerRef: expect.stringMatching(/^iss_[0-9a-f]{24}$/),
      createdAt: kit.clock.now().toISOString(),
      updatedAt: kit.clock.now().toISOString(),
    });
    expect(await kit.get(c.id)).toEqual(c);
    // Not due yet: the timer waits on the (sandbox) kit.clock.
    kit.clock.advance(CARD_ISSUANCE_DELAY_MS - 1);
    await kit.t.service.infra.jobs.promoteDue();
    expect((await kit.t.service.infra.jobs.getJob('card-provisioning', `issue:${c.id}`))?.state).toBe('delayed');
    expect((await kit.get(c.id)).state).toBe('PENDING_ISSUE');
    kit.clock.advance(1);
    await kit.t.service.infra.jobs.promoteDue();
    const active = await kit.until(
      () => kit.get(c.id),
      (x) => x.state === 'ACTIVE',
      'activation',
    );
    expect(active).toMatchObject({
      state: 'ACTIVE',
      stateReason: null,
      expMonth: 1,
      expYear: 2029,
      updatedAt: kit.clock.now().toISOString(),
    });
    expect(active.last4).toMatch(/^\d{4}$/);
    expect(active.panEmbedUrl).toMatch(/^https:\/\/.+\?token=[A-Za-z0-9_-]+$/);
    // No PAN anywhere: no run of 13-19 digits standing alone (a run inside a hex token, such as the issuer's
    // reference in panEmbedUrl, is not a card number).
    expect(JSON.stringify(active)).not.toMatch(/(?<![0-9a-fA-F])\d{13,19}(?![0-9a-fA-F])/);
    const events = await kit.cardEvents(c.id);
    expect(events.map((e) => e.type)).toEqual(['CardCreated', 'CardStateChanged']);
    expect(events[1].data).toMatchObject({
      platformId: kit.t.service.sandbox!.platformId,
      previousState: 'PENDING_ISSUE',
      card: active,
    });
  });

  it('generates a platformCardId when none is given', async () => {
    const c = await kit.card(await kit.holder());
    expect(c.platformCardId).toMatch(/^card_[0-9a-f]{20}$/);
  });

  it(
    'closes the card with ISSUER_REJECTED when the sandbox issuer rejects it (platformCardId ' + 'ending in 002)',
    async () => {
      const h = await kit.holder();
      const c = await kit.card(h, { platformCardId: 'reject-002' });
      const rejected = await kit.provision(c.id);
      expect(rejected).toMatchObject({
        state: 'CLOSED',
        stateReason: 'ISSUER_REJECTED',
        fundingSources: [],
      });
      // The issuer's details stay absent (not null) on a card that was never issued.
      for (const field of ['last4', 'expMonth', 'expYear', 'panEmbedUrl']) expect(rejected).not.toHaveProperty(field);
      const refused = await kit.api.patch(`/cards/${c.id}`, { state: 'ACTIVE' });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('INVALID_STATE_TRANSITION');
    },
  );

  it('validates POST /cards and changes nothing when it refuses', async () => {
    const h = await kit.holder();
    const other = await kit.holder();
    const before = (await kit.api.get(`/cards?customerId=${encodeURIComponent(h.customerId)}`)).body.totalCount;
    const refuse = async (body: Record<string, unknown>, status: number, code: string, field?: string) => {
      const res = await kit.api.post('/cards', {
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
    const foreign = await kit.t.otherPlatform();
    const res = await foreign.api.post('/cards', {
      customerId: h.customerId,
      form: 'VIRTUAL',
      fundingSources: [h.usd],
    });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    expect((await kit.api.get(`/cards?customerId=${encodeURIComponent(h.customerId)}`)).body.totalCount).toBe(before);
  });

  it('lists cards with every filter, both sort orders, cursor pagination and totalCount', async () => {
    const h = await kit.holder();
    const a = await kit.activeCard(h, { platformCardId: 'list-a' });
    kit.clock.advance(1000);
    const b = await kit.card(h, { platformCardId: 'list-b', fundingSources: [h.wallet.accountId] });
    kit.clock.advance(1000);
    const c = await kit.card(h, { platformCardId: 'list-c', fundingSources: [h.usd] });
    const ids = async (query: string) => {
      const res = await kit.api.get(`/cards?${query}`);
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
      expect((await kit.api.get(`/cards?${bad}`)).status).toBe(400);
    }
  });

  it('documents the card routes and schemas in the OpenAPI document', async () => {
    const doc = (await kit.t.anonymous.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/cards', '/cards/{id}', '/sandbox/cards/{id}/simulate/authorization']),
    );
    expect(doc.paths['/cards/{id}'].patch.responses['202']).toBeDefined();
    expect(doc.components.schemas.Card.properties.form.enum).toEqual(['VIRTUAL']);
  });
});
