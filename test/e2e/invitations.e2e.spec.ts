import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import type { Client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';
import { expectInvalidInputs, type InvalidCase } from '../support/invalid-input.js';
import { steppedRequests } from '../support/stepped-requests.js';

const START = Date.UTC(2026, 3, 6, 8);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const MXN = { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 };

describe('invitations over HTTP', () => {
  let other: { platformId: string; api: Client };
  const clock = new ManualClock(START);
  let ada: { id: string; umaAddress: string };
  let domain: string;

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    other = await t.otherPlatform();
    ada = (
      await api.post('/customers', {
        platformCustomerId: 'ada',
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        currencies: ['MXN', 'USD'],
      })
    ).body;
    domain = ada.umaAddress.split('@')[1];
  });

  const step = steppedRequests(clock);
  const invite = (body: Record<string, unknown> = {}) =>
    step(201, () => api.post('/invitations', { inviterUma: ada.umaAddress, ...body }));

  it('creates an invitation with a link on the platform’s UMA domain and a 30-day default expiry', async () => {
    const inv = await invite({ firstName: 'Ada', amountToSend: 5000 });
    const now = clock.now().getTime();
    expect(inv).toEqual({
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{10}$/),
      createdAt: new Date(now).toISOString(),
      url: `https://${domain}/invite/${inv.code}`,
      inviterUma: ada.umaAddress,
      status: 'PENDING',
      expiresAt: new Date(now + 30 * DAY).toISOString(),
      firstName: 'Ada',
      amountToSend: { amount: 5000, currency: MXN },
    });
    const got = await api.get(`/invitations/${inv.code}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(inv);
    // Codes are read case-insensitively.
    expect((await api.get(`/invitations/${inv.code.toLowerCase()}`)).body).toEqual(inv);

    const expiresAt = new Date(clock.now().getTime() + 2 * DAY).toISOString();
    const minimal = await invite({ expiresAt });
    expect(minimal.firstName).toBeUndefined();
    expect(minimal.amountToSend).toBeUndefined();
    expect(minimal.expiresAt).toBe(expiresAt);
    expect(minimal.code).not.toBe(inv.code);
  });

  it(
    'lets any platform read and claim; the claim records the invitee and emits the full snapshot, ' + 'moving no money',
    async () => {
      const inv = await invite({ firstName: 'Ada', amountToSend: 12345 });
      expect((await other.api.get(`/invitations/${inv.code}`)).body).toEqual(inv);
      const head = await t.service.infra.eventStore.headPosition();
      clock.advance(5000);
      const claimed = await other.api.post(`/invitations/${inv.code}/claim`, {
        inviteeUma: '$grace@other.example.com',
      });
      expect(claimed.status).toBe(200);
      expect(claimed.body).toEqual({
        ...inv,
        status: 'CLAIMED',
        claimedAt: clock.now().toISOString(),
        inviteeUma: '$grace@other.example.com',
      });
      expect((await api.get(`/invitations/${inv.code}`)).body).toEqual(claimed.body);

      // The claim is one event on the invitation's stream: no ledger transfer, nothing else.
      const appended = await t.service.infra.eventStore.readAll({ after: head });
      expect(appended.map((e) => [e.streamName, e.type])).toEqual([
        [streams.invitation(inv.code), 'InvitationClaimed'],
      ]);
      const [event] = await t.service.infra.eventStore.readStream(streams.invitation(inv.code), { fromRevision: 1n });
      expect(event.type).toBe('InvitationClaimed');
      expect(event.data).toEqual({
        code: inv.code,
        platformId: t.service.sandbox!.platformId,
        claimedAt: clock.now().toISOString(),
        invitation: {
          code: inv.code,
          platformId: t.service.sandbox!.platformId,
          inviterCustomerId: ada.id,
          inviterUma: ada.umaAddress,
          url: inv.url,
          status: 'CLAIMED',
          firstName: 'Ada',
          amountToSend: { amount: '12345', currency: 'MXN' },
          createdAt: inv.createdAt,
          expiresAt: inv.expiresAt,
          updatedAt: clock.now().toISOString(),
          claimedAt: clock.now().toISOString(),
          inviteeUma: '$grace@other.example.com',
          claimedByPlatformId: other.platformId,
        },
      });
      expect(event.metadata.platformId).toBe(other.platformId);

      for (const call of [
        () => other.api.post(`/invitations/${inv.code}/claim`, { inviteeUma: '$zed@other.example.com' }),
        () => api.post(`/invitations/${inv.code}/cancel`),
      ]) {
        const res = await call();
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('INVALID_STATE_TRANSITION');
      }
    },
  );

  it('cancels a pending invitation of the platform; cancelled ones cannot be claimed or cancelled again', async () => {
    const inv = await invite();
    expect((await other.api.post(`/invitations/${inv.code}/cancel`)).status).toBe(404);
    clock.advance(1000);
    const cancelled = await api.post(`/invitations/${inv.code}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ ...inv, status: 'CANCELLED' });
    for (const call of [
      () => api.post(`/invitations/${inv.code}/cancel`),
      () => other.api.post(`/invitations/${inv.code}/claim`, { inviteeUma: '$bo@other.example.com' }),
    ]) {
      const res = await call();
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('INVALID_STATE_TRANSITION');
    }
  });

  it(
    'expires on the injected clock: PENDING up to expiresAt, EXPIRED after, then neither claimable ' +
      'nor cancellable',
    async () => {
      const inv = await invite({ expiresAt: new Date(clock.now().getTime() + 1001 + HOUR).toISOString() });
      clock.set(new Date(inv.expiresAt));
      expect((await api.get(`/invitations/${inv.code}`)).body.status).toBe('PENDING');
      clock.advance(1);
      const expired = await api.get(`/invitations/${inv.code}`);
      expect(expired.body).toEqual({ ...inv, status: 'EXPIRED' });
      for (const call of [
        () => other.api.post(`/invitations/${inv.code}/claim`, { inviteeUma: '$late@other.example.com' }),
        () => api.post(`/invitations/${inv.code}/cancel`),
      ]) {
        const res = await call();
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({
          code: 'INVALID_STATE_TRANSITION',
          message: expect.stringContaining('EXPIRED'),
        });
      }
      // An invitation still within its time can be claimed at its last moment.
      const last = await invite({ expiresAt: new Date(clock.now().getTime() + 1000 + HOUR).toISOString() });
      clock.set(new Date(last.expiresAt));
      expect(
        (await other.api.post(`/invitations/${last.code}/claim`, { inviteeUma: '$just@other.example.com' })).body
          .status,
      ).toBe('CLAIMED');
    },
  );

  it('refuses invalid create and claim input and changes nothing', async () => {
    const bob = (await api.post('/customers', { platformCustomerId: 'bob', customerType: 'INDIVIDUAL' })).body;
    await api.delete(`/customers/${bob.id}`);
    const foreign = (await other.api.post('/customers', { platformCustomerId: 'x', customerType: 'INDIVIDUAL' })).body;
    const pending = await invite();
    const before = (await api.get('/invitations')).body.totalCount;
    const now = clock.now().getTime();
    const post = (body: Record<string, unknown>) => api.post('/invitations', { inviterUma: ada.umaAddress, ...body });
    const cases: InvalidCase[] = [
      ['missing inviterUma', () => api.post('/invitations', {}), 'inviterUma'],
      ['malformed inviterUma', () => post({ inviterUma: 'ada@example.com' }), 'inviterUma'],
      ['inviterUma of nobody', () => post({ inviterUma: '$nobody@example.com' }), 'inviterUma'],
      ['inviterUma of a deleted customer', () => post({ inviterUma: bob.umaAddress }), 'inviterUma'],
      ['inviterUma of another platform’s customer', () => post({ inviterUma: foreign.umaAddress }), 'inviterUma'],
      ['zero amount', () => post({ amountToSend: 0 }), 'amountToSend'],
      ['negative amount', () => post({ amountToSend: -5 }), 'amountToSend'],
      ['fractional amount', () => post({ amountToSend: 1.5 }), 'amountToSend'],
      ['amount as string', () => post({ amountToSend: '100' }), 'amountToSend'],
      ['amount past 2^53', () => post({ amountToSend: 2 ** 53 }), 'amountToSend'],
      ['empty firstName', () => post({ firstName: '' }), 'firstName'],
      ['expiresAt not a date', () => post({ expiresAt: 'tomorrow' }), 'expiresAt'],
      ['expiresAt in the past', () => post({ expiresAt: new Date(now - 1000).toISOString() }), 'expiresAt'],
      ['expiresAt now', () => post({ expiresAt: new Date(now).toISOString() }), 'expiresAt'],
      ['expiresAt beyond a year', () => post({ expiresAt: new Date(now + 366 * DAY).toISOString() }), 'expiresAt'],
      ['unknown field', () => post({ message: 'hi' }), 'message'],
      ['claim without inviteeUma', () => other.api.post(`/invitations/${pending.code}/claim`, {}), 'inviteeUma'],
      [
        'claim with malformed inviteeUma',
        () => other.api.post(`/invitations/${pending.code}/claim`, { inviteeUma: 'grace' }),
        'inviteeUma',
      ],
      [
        'claim with unknown field',
        () => other.api.post(`/invitations/${pending.code}/claim`, { inviteeUma: '$g@o.example.com', note: 1 }),
        'note',
      ],
      [
        'claim by the inviter',
        () => api.post(`/invitations/${pending.code}/claim`, { inviteeUma: ada.umaAddress }),
        'inviteeUma',
      ],
      ['malformed code', () => api.get('/invitations/short'), 'invitationCode'],
      [
        'malformed code on claim',
        () => other.api.post('/invitations/ILLEGAL-ID/claim', { inviteeUma: '$g@o.example.com' }),
        'invitationCode',
      ],
      ['bad status filter', () => api.get('/invitations?status=OPEN'), 'status'],
      ['limit 0', () => api.get('/invitations?limit=0'), 'limit'],
      ['bad cursor', () => api.get('/invitations?cursor=abc'), 'cursor'],
    ];
    await expectInvalidInputs(cases, 'distinct');
    expect((await api.get('/invitations')).body.totalCount).toBe(before);
    expect((await api.get(`/invitations/${pending.code}`)).body.status).toBe('PENDING');
    const unknown = await other.api.post('/invitations/0000000000/claim', { inviteeUma: '$g@o.example.com' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('INVITATION_NOT_FOUND');
    expect((await api.get('/invitations/0000000000')).status).toBe(404);
    expect(
      (await t.anonymous.post(`/invitations/${pending.code}/claim`, { inviteeUma: '$g@o.example.com' })).status,
    ).toBe(401);
  });

  it(
    'lists the platform’s invitations by status (EXPIRED derived from the clock) and inviterUma, ' + 'with pagination',
    async () => {
      const carol = (
        await api.post('/customers', { platformCustomerId: 'carol', customerType: 'INDIVIDUAL', currencies: ['USD'] })
      ).body;
      const byCarol = async (body: Record<string, unknown> = {}) => invite({ inviterUma: carol.umaAddress, ...body });
      const soon = await byCarol({ expiresAt: new Date(clock.now().getTime() + 1000 + HOUR).toISOString() });
      const claimed = await byCarol({ amountToSend: 250 });
      expect(claimed.amountToSend).toEqual({
        amount: 250,
        currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
      });
      await other.api.post(`/invitations/${claimed.code}/claim`, { inviteeUma: '$dan@other.example.com' });
      const cancelled = await byCarol();
      await api.post(`/invitations/${cancelled.code}/cancel`);
      const open = await byCarol();
      clock.advance(2 * HOUR);

      const codes = async (query: string) => {
        const res = await api.get(`/invitations?inviterUma=${encodeURIComponent(carol.umaAddress)}${query}`);
        expect(res.status).toBe(200);
        return res.body.data.map((i: any) => `${i.code}:${i.status}`);
      };
      expect(await codes('')).toEqual([
        `${open.code}:PENDING`,
        `${cancelled.code}:CANCELLED`,
        `${claimed.code}:CLAIMED`,
        `${soon.code}:EXPIRED`,
      ]);
      expect(await codes('&status=PENDING')).toEqual([`${open.code}:PENDING`]);
      expect(await codes('&status=EXPIRED')).toEqual([`${soon.code}:EXPIRED`]);
      expect(await codes('&status=CLAIMED')).toEqual([`${claimed.code}:CLAIMED`]);
      expect(await codes('&status=CANCELLED')).toEqual([`${cancelled.code}:CANCELLED`]);

      const all = (await api.get('/invitations?limit=100')).body;
      expect(all.data.some((i: any) => i.inviterUma === ada.umaAddress)).toBe(true);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await api.get(`/invitations?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`))
          .body;
        expect(page.totalCount).toBe(all.totalCount);
        seen.push(...page.data.map((i: any) => i.code));
        cursor = page.nextCursor;
        expect(Boolean(cursor)).toBe(page.hasMore);
      } while (cursor);
      expect(seen).toEqual(all.data.map((i: any) => i.code));
      // Claiming someone else's invitation does not make it the claimer's.
      expect((await other.api.get('/invitations')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    },
  );
});
