import { beforeAll, describe, expect, it } from '@jest/globals';
import { IdentityClaims } from '#application/claims/identity-claims.js';
import { CommandRunner } from '#application/command-runner.js';
import { PENDING_CLAIM_GRACE_MS, umaAddressKey } from '#domain/claims/claim.js';
import { ManualClock } from '#domain/clock.js';
import { customerDecider } from '#domain/customers/customer.js';
import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import type { Client, Reply } from '../support/service.js';
import { walletSession } from '../support/wallet-session.js';
import { useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 0, 5, 12);
const usd = (accountNumber: string) => ({
  accountType: 'USD_ACCOUNT',
  accountNumber,
  routingNumber: '021000021',
  beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
});

describe('unique identities are claimed in the write path', () => {
  let other: { platformId: string; api: Client };
  const clock = new ManualClock(START);

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    other = await t.otherPlatform();
  });

  const individual = (platformCustomerId: string, extra: Record<string, unknown> = {}) => ({
    platformCustomerId,
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    ...extra,
  });

  async function create(client: Client, platformCustomerId: string, extra: Record<string, unknown> = {}) {
    const res = await client.post('/customers', individual(platformCustomerId, extra));
    expect(res.status).toBe(201);
    return res.body;
  }

  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
  const winners = (replies: Reply[]) => replies.filter((r) => r.status === 201);

  function expectOneWinner(replies: Reply[], code: string) {
    expect(winners(replies)).toHaveLength(1);
    const losers = replies.filter((r) => r.status !== 201);
    expect(losers).toHaveLength(replies.length - 1);
    for (const loser of losers) expect(loser.body).toMatchObject({ status: 409, code });
  }

  it(
    'creates one of 20 concurrent customers with one UMA address on two platforms; the rest are ' +
      '409 UMA_ADDRESS_EXISTS',
    async () => {
      const address = '$shared@uniq.example';
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? api : other.api).post('/customers', individual(`uma-race-${i}`, { umaAddress: address })),
        ),
      );
      expectOneWinner(replies, 'UMA_ADDRESS_EXISTS');
      const listed = async (client: Client) =>
        (await client.get(`/customers?umaAddress=${encodeURIComponent(address)}`)).body.totalCount;
      expect((await listed(api)) + (await listed(other.api))).toBe(1);
      // The losers released the platformCustomerIds they had claimed on the way.
      const loser = replies.findIndex((r) => r.status === 409);
      await create(loser % 2 === 0 ? api : other.api, `uma-race-${loser}`);
    },
  );

  it('treats UMA addresses case-insensitively', async () => {
    await create(api, 'case-1', { umaAddress: '$Grace@uniq.example' });
    const dup = await other.api.post('/customers', individual('case-2', { umaAddress: '$grace@UNIQ.example' }));
    expect(dup.body).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
  });

  it(
    'creates one of 20 concurrent customers with one platformCustomerId; the rest are 409 ' +
      'CONFLICT; another platform may use it',
    async () => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => api.post('/customers', individual('same-pcid'))),
      );
      expectOneWinner(replies, 'CONFLICT');
      expect((await api.get('/customers?platformCustomerId=same-pcid')).body.totalCount).toBe(1);
      const elsewhere = await create(other.api, 'same-pcid');
      expect(elsewhere.platformCustomerId).toBe('same-pcid');
    },
  );

  it('generates another UMA address when the generated one is taken', async () => {
    const taken = await create(other.api, 'gen-1', { umaAddress: '$taken@sandbox.uma.local' });
    const generated = await create(api, 'taken');
    expect(generated.umaAddress).not.toBe(taken.umaAddress);
    expect(generated.umaAddress).toMatch(/^\$taken-[0-9a-f]{8}@sandbox\.uma\.local$/);
  });

  it('releases both identities when a customer is deleted: they can be used again', async () => {
    const first = await create(api, 'reuse-1', { umaAddress: '$reuse@uniq.example' });
    expect((await other.api.post('/customers', individual('x', { umaAddress: '$reuse@uniq.example' }))).status).toBe(
      409,
    );
    expect((await api.delete(`/customers/${first.id}`)).status).toBe(200);
    const again = await create(api, 'reuse-1', { umaAddress: '$reuse@uniq.example' });
    expect(again.id).not.toBe(first.id);
    expect((await api.post('/customers', individual('reuse-1'))).body.code).toBe('CONFLICT');
  });

  it('claims a new umaAddress or platformCustomerId on PATCH and releases the old one', async () => {
    const ada = await create(api, 'patch-ada', { umaAddress: '$ada.patch@uniq.example' });
    const bob = await create(other.api, 'patch-bob', { umaAddress: '$bob.patch@uniq.example' });
    const takeBobs = await api.patch(`/customers/${ada.id}`, { umaAddress: '$bob.patch@uniq.example' });
    expect(takeBobs.body).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
    const other2 = await create(api, 'patch-other');
    expect((await api.patch(`/customers/${ada.id}`, { platformCustomerId: 'patch-other' })).body).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect((await api.get(`/customers/${ada.id}`)).body).toMatchObject({
      umaAddress: '$ada.patch@uniq.example',
      platformCustomerId: 'patch-ada',
    });

    const moved = await api.patch(`/customers/${ada.id}`, {
      umaAddress: '$ada.moved@uniq.example',
      platformCustomerId: 'patch-ada-2',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ umaAddress: '$ada.moved@uniq.example', platformCustomerId: 'patch-ada-2' });
    // The old ones are free, the new ones taken.
    expect(
      (await other.api.post('/customers', individual('y', { umaAddress: '$ada.moved@uniq.example' }))).status,
    ).toBe(409);
    expect((await api.post('/customers', individual('patch-ada-2'))).status).toBe(409);
    await create(api, 'patch-ada');
    const newOwner = await create(other.api, 'patch-carol', { umaAddress: '$ada.patch@uniq.example' });
    expect(newOwner.umaAddress).toBe('$ada.patch@uniq.example');
    // Patching to the value it already has is no conflict with itself.
    expect((await other.api.patch(`/customers/${bob.id}`, { umaAddress: '$bob.patch@uniq.example' })).status).toBe(200);
    expect(other2.id).toBeDefined();

    // Money sent to the address goes to its one owner: the new one, on the other platform.
    const receive = (client: Client) =>
      client.post('/sandbox/uma/receive', {
        senderUmaAddress: '$alice@sender.example',
        receiverUmaAddress: '$ada.patch@uniq.example',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1_000,
      });
    const mine = await receive(api);
    expect(mine.status).toBe(404);
    const theirs = await receive(other.api);
    expect(theirs.status).toBe(200);
    expect(theirs.body.customerId).toBe(newOwner.id);
  });

  it('creates one of 20 concurrent cards with one platformCardId; the rest are 409 CONFLICT', async () => {
    const holder = await create(api, 'card-holder', { email: 'holder@example.com' });
    const accounts = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(holder.id)}`)).body
      .data;
    const usdAccount = accounts.find((a: any) => a.balance.currency.code === 'USD').id;
    const wallet = await walletSession(api, holder.id, 'USD');
    const body = {
      customerId: holder.id,
      form: 'VIRTUAL',
      fundingSources: [usdAccount, wallet.accountId],
      platformCardId: 'card-race-1',
    };
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.post('/cards', body)));
    expectOneWinner(replies, 'CONFLICT');
    expect((await api.get('/cards?platformCardId=card-race-1')).body.totalCount).toBe(1);
    // Unique per platform only.
    const elsewhere = await create(other.api, 'card-holder-2', { email: 'holder2@example.com' });
    const elsewhereAccounts = (
      await other.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(elsewhere.id)}`)
    ).body.data;
    const elsewhereWallet = await walletSession(other.api, elsewhere.id, 'USD');
    const usd2 = elsewhereAccounts.find((a: any) => a.balance.currency.code === 'USD').id;
    const card = await other.api.post('/cards', {
      ...body,
      customerId: elsewhere.id,
      fundingSources: [usd2, elsewhereWallet.accountId],
    });
    expect(card.status).toBe(201);
  });

  it('refuses an external account twice for one customer, and frees it when deleted', async () => {
    const ada = await create(api, 'ext-ada');
    const bob = await create(api, 'ext-bob');
    const add = (customerId: string) =>
      api.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usd('55550001') });
    const replies = await Promise.all(Array.from({ length: 10 }, () => add(ada.id)));
    expectOneWinner(replies, 'CONFLICT');
    expect((await add(bob.id)).status).toBe(201);
    const first = winners(replies)[0].body;
    expect((await api.delete(`/customers/external-accounts/${first.id}`)).status).toBeLessThan(300);
    const again = await add(ada.id);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.id);
    expect(statuses([await add(ada.id)])).toEqual([409]);
  });

  it(
    'takes over a claim whose customer was never created, once it is old enough, and abandons that ' + 'customer id',
    async () => {
      // As if a process died between claiming the address and creating the customer.
      const claims = t.service.app.get(IdentityClaims);
      const ghost = 'Customer:00000000-0000-4000-8000-0000000dead1';
      const actor = { platformId: other.platformId, actor: 'test', correlationId: 'ghost' };
      await claims.claim([umaAddressKey('$ghost@uniq.example')], { id: ghost, stream: streams.customer(ghost) }, actor);

      const early = await api.post('/customers', individual('ghost-1', { umaAddress: '$ghost@uniq.example' }));
      expect(early.body).toMatchObject({ status: 409, code: 'UMA_ADDRESS_EXISTS' });
      clock.advance(PENDING_CLAIM_GRACE_MS);
      const late = await create(api, 'ghost-1', { umaAddress: '$ghost@uniq.example' });
      expect((await claims.holder(umaAddressKey('$ghost@uniq.example')))?.ownerId).toBe(late.id);

      // The stalled creator can no longer create the customer it had claimed for.
      const runner = t.service.app.get(CommandRunner);
      const resurrect = runner.run(
        streams.customer(ghost),
        customerDecider,
        {
          type: 'CreateCustomer',
          customerId: ghost,
          platformId: other.platformId,
          platformCustomerId: 'ghost-2',
          customerType: 'INDIVIDUAL',
          kycStatus: 'APPROVED',
          profile: { umaAddress: '$ghost@uniq.example' },
          accounts: [],
          now: clock.now().toISOString(),
        },
        { metadata: actor },
      );
      await expect(resurrect).rejects.toBeInstanceOf(DomainError);
      expect((await other.api.get(`/customers/${ghost}`)).status).toBe(404);
    },
  );

  it('lets a retry of the same claim through: the holder claiming again is no conflict', async () => {
    const claims = t.service.app.get(IdentityClaims);
    const id = 'Customer:00000000-0000-4000-8000-0000000beef1';
    const actor = { platformId: t.service.sandbox!.platformId, actor: 'test', correlationId: 'retry' };
    const key = umaAddressKey('$retry@uniq.example');
    await claims.claim([key], { id, stream: streams.customer(id) }, actor);
    await claims.claim([key], { id, stream: streams.customer(id) }, actor);
    expect((await claims.holder(key))?.ownerId).toBe(id);
  });
});
