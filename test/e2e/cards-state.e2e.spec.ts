import { beforeAll, describe, expect, it } from '@jest/globals';
import { cardsHarness, type Holder } from './cards-support.js';
import { type WalletSession } from '../support/wallet-session.js';

const START = Date.UTC(2026, 0, 5, 12);

describe('cards over HTTP: the state table, funding sources and signed PATCH', () => {
  const kit = cardsHarness(START);

  describe('the card state table', () => {
    let h: Holder;
    beforeAll(async () => {
      h = await kit.holder();
    });

    it('ACTIVE -> FROZEN -> ACTIVE with a signed retry, each emitting CardStateChanged with the snapshot', async () => {
      const c = await kit.activeCard(h);
      const freeze = await kit.patch(c.id, { state: 'FROZEN' }, h.wallet);
      expect(freeze.challenge.status).toBe(202);
      expect(freeze.result.status).toBe(200);
      expect(freeze.result.body).toMatchObject({
        id: c.id,
        state: 'FROZEN',
        stateReason: null,
        fundingSources: c.fundingSources,
      });
      const unfreeze = await kit.patch(c.id, { state: 'ACTIVE' }, h.wallet);
      expect(unfreeze.result.status).toBe(200);
      expect(unfreeze.result.body.state).toBe('ACTIVE');
      expect(await kit.get(c.id)).toEqual(unfreeze.result.body);
      const changes = (await kit.cardEvents(c.id)).filter((e) => e.type === 'CardStateChanged').slice(-2);
      expect(changes.map((e) => e.data)).toEqual([
        {
          platformId: kit.t.service.sandbox!.platformId,
          cardId: c.id,
          previousState: 'ACTIVE',
          card: freeze.result.body,
        },
        {
          platformId: kit.t.service.sandbox!.platformId,
          cardId: c.id,
          previousState: 'FROZEN',
          card: unfreeze.result.body,
        },
      ]);
      expect(changes[0].metadata).toMatchObject({ walletSessionId: h.wallet.id });
    });

    it.each(['ACTIVE', 'FROZEN'])(
      '%s -> CLOSED: CLOSED_BY_PLATFORM, bindings detached, card kept, terminal',
      async (from) => {
        const c = await kit.activeCard(h);
        if (from === 'FROZEN') expect((await kit.patch(c.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
        const closed = await kit.patch(c.id, { state: 'CLOSED' }, h.wallet);
        expect(closed.result.status).toBe(200);
        expect(closed.result.body).toMatchObject({
          state: 'CLOSED',
          stateReason: 'CLOSED_BY_PLATFORM',
          fundingSources: [],
          last4: c.last4,
        });
        expect((await kit.api.get(`/cards/${c.id}`)).status).toBe(200);
        expect(
          (await kit.api.get(`/cards?accountId=${encodeURIComponent(h.usd)}&state=CLOSED`)).body.data.map(
            (x: any) => x.id,
          ),
        ).not.toContain(c.id);
        const last = (await kit.cardEvents(c.id)).at(-1)!;
        expect(last).toMatchObject({
          type: 'CardStateChanged',
          data: { previousState: from, card: { state: 'CLOSED' } },
        });
      },
    );

    it('answers 409 INVALID_STATE_TRANSITION for every other requested transition, before any challenge', async () => {
      const pendingKyc = await kit.card(await kit.holder('Lin Wu001'));
      const active = await kit.activeCard(h);
      const frozen = await kit.activeCard(h);
      expect((await kit.patch(frozen.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
      const closed = await kit.activeCard(h);
      expect((await kit.patch(closed.id, { state: 'CLOSED' }, h.wallet)).result.status).toBe(200);
      // Last: provisioning of the others moved the clock, this one's timer is not due yet.
      const pendingIssue = await kit.card(h);
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
        const before = (await kit.cardEvents(id)).length;
        const res = await kit.api.patch(`/cards/${id}`, { state: to });
        expect({ from, to, status: res.status, code: res.body.code }).toEqual({
          from,
          to,
          status: 409,
          code: 'INVALID_STATE_TRANSITION',
        });
        expect((await kit.cardEvents(id)).length).toBe(before);
        expect((await kit.get(id)).state).toBe(from);
      }
      const fundingOnClosed = await kit.api.patch(`/cards/${closed.id}`, { fundingSources: [h.usd] });
      expect({ status: fundingOnClosed.status, code: fundingOnClosed.body.code }).toEqual({
        status: 409,
        code: 'INVALID_STATE_TRANSITION',
      });
    });

    it('decides again on the signed step: a transition that became invalid after the challenge is a 409', async () => {
      const c = await kit.activeCard(h);
      const first = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
      expect(first.status).toBe(202);
      expect((await kit.patch(c.id, { state: 'FROZEN' }, h.wallet)).result.status).toBe(200);
      const late = await kit.api.patch(
        `/cards/${c.id}`,
        { state: 'FROZEN' },
        {
          'service-wallet-signature': await h.wallet.stamp(first.body.payloadToSign),
          'request-id': first.body.requestId,
        },
      );
      expect({ status: late.status, code: late.body.code }).toEqual({ status: 409, code: 'INVALID_STATE_TRANSITION' });
      expect((await kit.get(c.id)).state).toBe('FROZEN');
    });
  });

  describe('funding sources on PATCH', () => {
    it('replaces the ordered binding as a whole and emits CardFundingSourcesChanged', async () => {
      const h = await kit.holder();
      const c = await kit.activeCard(h);
      const res = await kit.patch(c.id, { fundingSources: [h.wallet.accountId, h.usd] }, h.wallet);
      expect(res.result.status).toBe(200);
      expect(res.result.body).toMatchObject({ state: 'ACTIVE', fundingSources: [h.wallet.accountId, h.usd] });
      const single = await kit.patch(c.id, { fundingSources: [h.wallet.accountId] }, h.wallet);
      expect(single.result.body.fundingSources).toEqual([h.wallet.accountId]);
      const changed = (await kit.cardEvents(c.id)).filter((e) => e.type === 'CardFundingSourcesChanged');
      expect(changed.map((e) => e.data)).toEqual([
        {
          platformId: kit.t.service.sandbox!.platformId,
          cardId: c.id,
          previousFundingSources: [h.usd, h.wallet.accountId],
          card: res.result.body,
        },
        {
          platformId: kit.t.service.sandbox!.platformId,
          cardId: c.id,
          previousFundingSources: [h.wallet.accountId, h.usd],
          card: single.result.body,
        },
      ]);
      expect(
        (await kit.api.get(`/cards?accountId=${encodeURIComponent(h.usd)}`)).body.data.map((x: any) => x.id),
      ).not.toContain(c.id);
      // State and funding sources together: both change.
      const both = await kit.patch(c.id, { state: 'FROZEN', fundingSources: [h.usd] }, h.wallet);
      expect(both.result.body).toMatchObject({ state: 'FROZEN', fundingSources: [h.usd] });
    });

    it('refuses every broken rule with 400 before a challenge, changing nothing', async () => {
      const h = await kit.holder();
      const other = await kit.holder();
      const c = await kit.activeCard(h);
      const before = (await kit.cardEvents(c.id)).length;
      const refuse = async (body: Record<string, unknown>, code: string, field: string) => {
        const res = await kit.api.patch(`/cards/${c.id}`, body);
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
      expect((await kit.cardEvents(c.id)).length).toBe(before);
      expect((await kit.get(c.id)).fundingSources).toEqual(c.fundingSources);
    });
  });

  describe('PATCH /cards/{id} as a signed retry', () => {
    it(
      'answers 202 without a signature, 200 with a stamp from the owning wallet, 401 with another ' +
        'account’s session',
      async () => {
        const h = await kit.holder();
        const stranger = await kit.holder();
        const c = await kit.activeCard(h);
        const challenge = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
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
        expect((await kit.get(c.id)).state).toBe('ACTIVE');

        const headers = async (session: WalletSession, first = challenge) => ({
          'service-wallet-signature': await session.stamp(first.body.payloadToSign),
          'request-id': first.body.requestId,
        });
        const foreign = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' }, await headers(stranger.wallet));
        expect(foreign.status).toBe(401);
        expect(foreign.body.reason).toEqual(expect.any(String));
        expect((await kit.get(c.id)).state).toBe('ACTIVE');

        const second = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
        const mismatch = await kit.api.patch(`/cards/${c.id}`, { state: 'CLOSED' }, await headers(h.wallet, second));
        expect(mismatch.status).toBe(401);
        expect((await kit.get(c.id)).state).toBe('ACTIVE');

        const third = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
        const ok = await kit.api.patch(`/cards/${c.id}`, { state: 'FROZEN' }, await headers(h.wallet, third));
        expect(ok.status).toBe(200);
        expect(ok.body).toMatchObject({ id: c.id, state: 'FROZEN' });
        const replay = await kit.api.patch(`/cards/${c.id}`, { state: 'ACTIVE' }, await headers(h.wallet, third));
        expect(replay.status).toBe(401);
        expect((await kit.get(c.id)).state).toBe('FROZEN');
      },
    );

    it('keeps cards of other platforms invisible', async () => {
      const h = await kit.holder();
      const c = await kit.card(h);
      const foreign = await kit.t.otherPlatform();
      for (const res of [
        await foreign.api.get(`/cards/${c.id}`),
        await foreign.api.patch(`/cards/${c.id}`, { state: 'FROZEN' }),
      ]) {
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'CARD_NOT_FOUND' });
      }
      expect((await foreign.api.get('/cards')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
      expect((await kit.api.get('/cards/Card:00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await kit.api.get('/cards/not-a-card')).status).toBe(400);
    });
  });
});
