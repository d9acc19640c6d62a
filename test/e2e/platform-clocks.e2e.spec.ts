import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { PlatformClocks } from '#application/command-context.js';
import type { Client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';
import { money } from './money-support.js';
import { walletSession, type WalletSession } from '../support/wallet-session.js';

const START = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;

/** What one platform holds that expires or fires on its own clock. */
interface Holdings {
  api: Client;
  session: WalletSession;
  challenge: { payloadToSign: string; requestId: string };
  quoteId: string;
  cardId: string;
  invitationCode: string;
}

/**
 * Every platform has its own clock: one sandbox platform advancing its clock expires its own
 * challenges, sessions, quotes and invitations and fires its own timers, and nothing of another
 * sandbox platform or of a production platform.
 */
describe('a clock per platform', () => {
  const clock = new ManualClock(START);
  let a: Holdings;
  let b: Holdings;
  let production: { platformId: string; api: Client };
  let bPlatformId: string;
  let payers = 0;

  async function holdings(api: Client): Promise<Holdings> {
    const m = money(t, api);
    const payer = await m.customer(['USD'], { email: `payer-${(payers += 1)}@example.com` });
    const session = await walletSession(api, payer.id, 'USD');
    const payee = await m.customer(['USD']);
    await m.fund(payer.accounts.USD, 10_000);
    const quote = await m.accountQuote(payer.accounts.USD, payee.accounts.USD, 100);
    expect(quote.status).toBe(201);
    const card = await api.post('/cards', {
      customerId: payer.id,
      form: 'VIRTUAL',
      fundingSources: [payer.accounts.USD],
    });
    expect({ status: card.status, state: card.body.state, body: card.status === 201 ? undefined : card.body }).toEqual({
      status: 201,
      state: 'PENDING_ISSUE',
      body: undefined,
    });
    const challenge = await api.patch(`/internal-accounts/${session.accountId}`, { privateEnabled: true });
    expect(challenge.status).toBe(202);
    const inviter = (await api.get(`/customers/${payer.id}`)).body;
    const invitation = await api.post('/invitations', {
      inviterUma: inviter.umaAddress,
      expiresAt: new Date(clock.now().getTime() + DAY).toISOString(),
    });
    expect(invitation.status).toBe(201);
    return {
      api,
      session,
      challenge: challenge.body,
      quoteId: quote.body.id,
      cardId: card.body.id,
      invitationCode: invitation.body.code,
    };
  }

  const retryChallenge = async (h: Holdings) =>
    h.api.patch(
      `/internal-accounts/${h.session.accountId}`,
      { privateEnabled: true },
      {
        'Service-Wallet-Signature': await h.session.stamp(h.challenge.payloadToSign),
        'Request-Id': h.challenge.requestId,
      },
    );
  const sessionIds = async (h: Holdings) =>
    (
      (await h.api.get(`/auth/sessions?accountId=${encodeURIComponent(h.session.accountId)}`)).body.data as {
        id: string;
      }[]
    ).map((s) => s.id);
  /** Timers run asynchronously once due: poll (bounded) for the state they produce. */
  const eventually = async (read: () => Promise<unknown>, expected: unknown) => {
    const deadline = Date.now() + 10_000;
    let last = await read();
    while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      last = await read();
    }
    expect(last).toEqual(expected);
  };

  const t = useTestService({ clock });
  beforeAll(async () => {
    const other = await t.otherPlatform({ sandbox: true });
    bPlatformId = other.platformId;
    production = await t.otherPlatform({ sandbox: false });
    a = await holdings(t.api);
    b = await holdings(other.api);
  });

  it('moves only the advancing platform’s time', async () => {
    const advanced = await b.api.post('/sandbox/clock/advance', { seconds: 2 * 86_400 });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ offsetMs: 2 * DAY, now: new Date(START + 2 * DAY).toISOString() });

    expect((await b.api.get('/sandbox/clock')).body).toEqual({
      now: new Date(START + 2 * DAY).toISOString(),
      offsetMs: 2 * DAY,
    });
    expect((await a.api.get('/sandbox/clock')).body).toEqual({ now: new Date(START).toISOString(), offsetMs: 0 });
    expect((await production.api.get('/sandbox/clock')).body).toEqual({
      now: new Date(START).toISOString(),
      offsetMs: 0,
    });
    // A production platform never moves its clock, and what it records is on real (base) time.
    expect((await production.api.post('/sandbox/clock/advance', { seconds: 60 })).status).toBe(403);
    const created = await production.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'prod-1',
      fullName: 'Grace Hopper',
    });
    expect(created.body.createdAt).toBe(new Date(START).toISOString());
    const bCustomer = await b.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'b-1',
      fullName: 'Grace Hopper',
    });
    expect(bCustomer.body.createdAt).toBe(new Date(START + 2 * DAY).toISOString());
  });

  it('expires the advancing platform’s challenges, sessions, quotes and invitations, and no one else’s', async () => {
    const refused = await retryChallenge(b);
    expect(refused.status).toBe(401);
    expect(await sessionIds(b)).toEqual([]);
    expect((await b.api.get(`/invitations/${b.invitationCode}`)).body.status).toBe('EXPIRED');

    const accepted = await retryChallenge(a);
    expect({ status: accepted.status, privateEnabled: accepted.body.privateEnabled }).toEqual({
      status: 200,
      privateEnabled: true,
    });
    expect(await sessionIds(a)).toEqual([a.session.id]);
    expect((await a.api.get(`/invitations/${a.invitationCode}`)).body.status).toBe('PENDING');
    // Read through another platform, an invitation still expires on its inviter's clock.
    expect((await b.api.get(`/invitations/${a.invitationCode}`)).body.status).toBe('PENDING');
  });

  it('fires the advancing platform’s timers only', async () => {
    await eventually(async () => (await b.api.get(`/quotes/${b.quoteId}`)).body.status, 'EXPIRED');
    await eventually(async () => (await b.api.get(`/cards/${b.cardId}`)).body.state, 'ACTIVE');

    expect((await a.api.get(`/cards/${a.cardId}`)).body.state).toBe('PENDING_ISSUE');
    expect((await a.api.post(`/quotes/${a.quoteId}/execute`)).body.status).not.toBe('EXPIRED');
    // A's timers run on A's own time.
    clock.advance(5_000);
    await t.service.infra.jobs.promoteDue();
    await eventually(async () => (await a.api.get(`/cards/${a.cardId}`)).body.state, 'ACTIVE');
  });

  it('lets every process read a platform’s clock from its stream', async () => {
    const another = new PlatformClocks(t.service.infra.eventStore, clock);
    expect(await another.offsetMs(bPlatformId)).toBe(2 * DAY);
    expect((await another.now(bPlatformId)).getTime()).toBe(clock.now().getTime() + 2 * DAY);
    expect(await another.offsetMs(production.platformId)).toBe(0);
  });
});
