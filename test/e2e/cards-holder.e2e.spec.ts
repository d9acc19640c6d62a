import { describe, expect, it } from '@jest/globals';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { useTestService } from '../support/fixture.js';
import { walletHolder } from '../support/wallet-session.js';
import { poll } from '../support/poll.js';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/**
 * Cards follow their holder: PENDING_KYC until the holder is approved, CLOSED_BY_SERVICE once the holder is deleted.
 */
describe('cards and their holder', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1, 8));

  const t = useTestService({ clock });
  const api = t.api;

  const holder = (fullName: string) => walletHolder(api, { fullName });

  const get = async (id: string) => (await api.get(`/cards/${id}`)).body;

  const until = <T>(read: () => Promise<T>, done: (v: T) => boolean, what: string) => poll(read, done, { what });

  /** The provisioning timer is scheduled by whoever moved the card to PENDING_ISSUE: advance until it is due. */
  const activation = (id: string) =>
    until(
      async () => {
        clock.advance(CARD_ISSUANCE_DELAY_MS);
        await t.service.infra.jobs.promoteDue();
        return get(id);
      },
      (x) => x.state === 'ACTIVE',
      'activation',
    );

  it('holds a card PENDING_KYC until the holder is approved, then provisions it', async () => {
    const h = await holder('Pat Smith001');
    expect(h.kycStatus).toBe('PENDING');
    const created = await api.post('/cards', {
      customerId: h.customerId,
      form: 'VIRTUAL',
      fundingSources: [h.usd, h.wallet.accountId],
    });
    expect(created.status).toBe(201);
    const c = created.body;
    expect(c.state).toBe('PENDING_KYC');
    // Waiting for KYC is not waiting for the issuer: no amount of time provisions it.
    clock.advance(10 * CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    expect((await get(c.id)).state).toBe('PENDING_KYC');
    const early = await api.patch(`/cards/${c.id}`, { state: 'FROZEN' });
    expect({ status: early.status, code: early.body.code }).toEqual({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    const auth = await api.post(`/sandbox/cards/${c.id}/simulate/authorization`, {
      amount: 10,
      currency: { code: 'USD' },
      merchant: { descriptor: 'SHOP' },
    });
    expect({ status: auth.status, code: auth.body.code }).toEqual({ status: 400, code: 'CARD_NOT_ACTIVE' });

    expect(
      (
        await api.patch(`/customers/${h.customerId}`, {
          fullName: 'Pat Smith',
          birthDate: '1990-01-31',
          address: ADDRESS,
        })
      ).status,
    ).toBe(200);
    clock.advance(1000);
    const verification = await api.post('/verifications', { customerId: h.customerId });
    expect(verification.body.verificationStatus).toBe('APPROVED');
    const issuing = await until(
      () => get(c.id),
      (x) => x.state !== 'PENDING_KYC',
      'the reaction to the KYC approval',
    );
    expect(issuing).toMatchObject({ state: 'PENDING_ISSUE', updatedAt: verification.body.createdAt });
    const active = await activation(c.id);
    expect(active.last4).toMatch(/^\d{4}$/);
    const events = (await t.service.infra.eventStore.readStream(streams.card(c.id))).filter(
      (e) => e.type !== 'CardAuthorizationRecorded',
    );
    expect(events.map((e) => [e.type, e.data.previousState, (e.data.card as { state: string }).state])).toEqual([
      ['CardCreated', undefined, 'PENDING_KYC'],
      ['CardStateChanged', 'PENDING_KYC', 'PENDING_ISSUE'],
      ['CardStateChanged', 'PENDING_ISSUE', 'ACTIVE'],
    ]);
    expect(events[1].metadata).toMatchObject({ platformId: t.service.sandbox!.platformId, actor: 'system:cards' });
  });

  it('refuses a card for a rejected holder', async () => {
    const h = await holder('Pat Smith002');
    expect(h.kycStatus).toBe('REJECTED');
    const refused = await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'CARDHOLDER_KYC_NOT_APPROVED',
      details: { errors: [{ field: 'customerId' }] },
    });
  });

  it('closes every open card of a deleted holder with CLOSED_BY_SERVICE', async () => {
    const h = await holder('Ada Lovelace');
    const first = (await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd] }))
      .body;
    await activation(first.id);
    const second = (
      await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.wallet.accountId] })
    ).body;
    expect(second.state).toBe('PENDING_ISSUE');
    clock.advance(1000);
    expect((await api.delete(`/customers/${h.customerId}`)).status).toBe(200);
    for (const id of [first.id, second.id]) {
      const closed = await until(
        () => get(id),
        (x) => x.state === 'CLOSED',
        `card ${id} to close`,
      );
      expect(closed).toMatchObject({
        stateReason: 'CLOSED_BY_SERVICE',
        fundingSources: [],
        updatedAt: clock.now().toISOString(),
      });
    }
    // The issuer's late answer does not reopen it.
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    await until(
      async () => (await t.service.infra.jobs.getJob('card-provisioning', `issue:${second.id}`))?.state,
      (s) => s === 'completed',
      'the issuer job',
    );
    expect((await get(second.id)).state).toBe('CLOSED');
    expect(
      (await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: [h.usd] })).status,
    ).toBe(404);
  });
});
