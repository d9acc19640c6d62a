import { beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { expectBalancedLedger } from '../support/ledger-check.js';
import type { Client, Reply } from '../support/service.js';
import { snapshot } from '../support/state-snapshot.js';
import { accountQuoteBody, money, type Customer } from './money-support.js';
import { policy, useAgents, type ConnectedAgent } from './agents-support.js';

type Kind = 'INTERNAL' | 'EXTERNAL';

/** A request of the agent API naming `accountId` in one place. */
interface Lane {
  name: string;
  kind: Kind;
  send(me: Client, accountId: string): Promise<Reply>;
}

const NOT_FOUND: Record<Kind, string> = {
  INTERNAL: 'INTERNAL_ACCOUNT_NOT_FOUND',
  EXTERNAL: 'EXTERNAL_ACCOUNT_NOT_FOUND',
};
const unknownId = (kind: Kind) => `${kind === 'INTERNAL' ? 'InternalAccount' : 'ExternalAccount'}:${randomUUID()}`;

/**
 * Accounts must belong to the agent's customer: every agent route that names an account refuses any other
 * (another customer's, the platform's own, another platform's), internal or external, source or destination,
 * with the 404 an account that does not exist gets, and nothing moves.
 */
describe('agents stay in their lane: only the customer’s own accounts', () => {
  const { t, api, a } = useAgents();
  let agent: ConnectedAgent;
  let own: Customer;
  let other: Customer;
  let otherExternal: string;
  let lanes: Lane[];
  const foreign: { name: string; kind: Kind; id: string }[] = [];
  let otherPlatform: { platformId: string; api: Client };

  beforeAll(async () => {
    agent = await a.connected(policy(), 100_000);
    own = agent.customer;
    other = await a.m.funded(50_000);
    otherExternal = await a.m.external(other.id, 'USD', '888');
    const platformExternal = await a.m.external(undefined, 'USD', '888');
    const platformInternal = (await api.get('/platform/internal-accounts?currency=USD')).body.data[0].id as string;
    otherPlatform = await t.otherPlatform();
    const elsewhere = money(t, otherPlatform.api);
    const stranger = await elsewhere.funded(40_000);
    const strangerExternal = await elsewhere.external(stranger.id, 'USD', '888');
    foreign.push(
      { name: 'another customer’s internal account', kind: 'INTERNAL', id: other.accounts.USD },
      { name: 'another customer’s external account', kind: 'EXTERNAL', id: otherExternal },
      { name: 'the platform’s internal account', kind: 'INTERNAL', id: platformInternal },
      { name: 'the platform’s external account', kind: 'EXTERNAL', id: platformExternal },
      { name: 'another platform’s customer’s internal account', kind: 'INTERNAL', id: stranger.accounts.USD },
      { name: 'another platform’s customer’s external account', kind: 'EXTERNAL', id: strangerExternal },
    );
    const quote = (body: Record<string, unknown>) => (me: Client) => me.post('/agents/me/quotes', body);
    const realtime = (accountId: string) => ({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 500,
    });
    lanes = [
      {
        name: 'quote, source, executed at once',
        kind: 'INTERNAL',
        send: (me, id) => quote(accountQuoteBody(id, agent.external, 500, { immediatelyExecute: true }))(me),
      },
      {
        name: 'quote, destination, executed at once',
        kind: 'INTERNAL',
        send: (me, id) => quote(accountQuoteBody(own.accounts.USD, id, 500, { immediatelyExecute: true }))(me),
      },
      {
        name: 'quote, destination',
        kind: 'INTERNAL',
        send: (me, id) => quote(accountQuoteBody(own.accounts.USD, id, 500))(me),
      },
      { name: 'real-time funded quote, destination', kind: 'INTERNAL', send: (me, id) => quote(realtime(id))(me) },
      {
        name: 'transfer-out, source',
        kind: 'INTERNAL',
        send: (me, id) =>
          me.post('/agents/me/transfer-out', {
            source: { accountId: id },
            destination: { accountId: agent.external },
            amount: 500,
          }),
      },
      {
        name: 'transfer-in, destination',
        kind: 'INTERNAL',
        send: (me, id) =>
          me.post('/agents/me/transfer-in', {
            source: { accountId: agent.external },
            destination: { accountId: id },
            amount: 500,
          }),
      },
      {
        name: 'quote, source',
        kind: 'EXTERNAL',
        send: (me, id) => quote(accountQuoteBody(id, own.accounts.USD, 500, { immediatelyExecute: true }))(me),
      },
      {
        name: 'quote, destination, executed at once',
        kind: 'EXTERNAL',
        send: (me, id) => quote(accountQuoteBody(own.accounts.USD, id, 500, { immediatelyExecute: true }))(me),
      },
      { name: 'real-time funded quote, destination', kind: 'EXTERNAL', send: (me, id) => quote(realtime(id))(me) },
      {
        name: 'transfer-out, destination',
        kind: 'EXTERNAL',
        send: (me, id) =>
          me.post('/agents/me/transfer-out', {
            source: { accountId: own.accounts.USD },
            destination: { accountId: id },
            amount: 500,
          }),
      },
      {
        name: 'transfer-in, source',
        kind: 'EXTERNAL',
        send: (me, id) =>
          me.post('/agents/me/transfer-in', {
            source: { accountId: id },
            destination: { accountId: own.accounts.USD },
            amount: 500,
          }),
      },
      {
        name: 'GET external account',
        kind: 'EXTERNAL',
        send: (me, id) => me.get(`/agents/me/external-accounts/${id}`),
      },
      {
        name: 'DELETE external account',
        kind: 'EXTERNAL',
        send: (me, id) => me.request('DELETE', `/agents/me/external-accounts/${id}`),
      },
    ];
    await t.service.infra.projections.waitForPosition(await t.service.infra.eventStore.headPosition(), 5000);
  });

  const balances = async () => ({
    own: await a.m.balance(own.accounts.USD),
    other: await a.m.balance(other.accounts.USD),
  });

  it('every route × every foreign account kind: 404 as for an unknown account, nothing moved', async () => {
    const platformId = t.service.sandbox!.platformId;
    const before = await snapshot(t, api, platformId);
    const otherBefore = await snapshot(t, otherPlatform.api, otherPlatform.platformId);
    expect(await balances()).toEqual({ own: 100_000, other: 50_000 });
    const answers: string[] = [];
    for (const lane of lanes) {
      // What an account that exists nowhere gets: a foreign one must be told apart from it by nothing but its id.
      const unknown = unknownId(lane.kind);
      const absent = await lane.send(agent.me, unknown);
      expect({ lane: lane.name, status: absent.status, code: absent.body.code }).toEqual({
        lane: lane.name,
        status: 404,
        code: NOT_FOUND[lane.kind],
      });
      for (const account of foreign.filter((f) => f.kind === lane.kind)) {
        const res = await lane.send(agent.me, account.id);
        answers.push(`${lane.name} × ${account.name}: ${res.status} ${res.body.code}`);
        expect({ lane: lane.name, account: account.name, body: res.body }).toEqual({
          lane: lane.name,
          account: account.name,
          body: JSON.parse(JSON.stringify(absent.body).replaceAll(unknown, account.id)),
        });
      }
    }
    expect(answers).toHaveLength(6 * 3 + 7 * 3);
    expect(await balances()).toEqual({ own: 100_000, other: 50_000 });
    expect(await snapshot(t, api, platformId)).toEqual(before);
    expect(await snapshot(t, otherPlatform.api, otherPlatform.platformId)).toEqual(otherBefore);
    await expectBalancedLedger(t.service.infra.eventStore, platformId);
  });

  it('another customer’s quote can be neither executed nor read; own quotes and transfers work', async () => {
    const platformId = t.service.sandbox!.platformId;
    // The platform's quote from the other customer's account into the agent's customer's.
    const theirs = await api.post('/quotes', accountQuoteBody(other.accounts.USD, own.accounts.USD, 700));
    expect(theirs.status).toBe(201);
    const before = await snapshot(t, api, platformId);
    const start = await balances();
    const execute = await agent.me.post(`/agents/me/quotes/${theirs.body.id}/execute`);
    expect({ status: execute.status, code: execute.body.code }).toEqual({ status: 404, code: 'QUOTE_NOT_FOUND' });
    expect((await agent.me.get(`/agents/me/quotes/${theirs.body.id}`)).status).toBe(404);
    expect(await balances()).toEqual(start);
    expect(await snapshot(t, api, platformId)).toEqual(before);

    // Controls: the same routes with the customer's own accounts.
    const out = await agent.me.post('/agents/me/transfer-out', {
      source: { accountId: own.accounts.USD },
      destination: { accountId: agent.external },
      amount: 500,
    });
    expect({ status: out.status, action: out.body.status }).toEqual({ status: 201, action: 'APPROVED' });
    const pay = await agent.me.post(
      '/agents/me/quotes',
      accountQuoteBody(own.accounts.USD, agent.external, 300, { immediatelyExecute: true }),
    );
    expect(pay.status).toBe(201);
    const quote = await agent.me.post('/agents/me/quotes', accountQuoteBody(own.accounts.USD, agent.external, 200));
    expect(quote.status).toBe(201);
    const executed = await agent.me.post(`/agents/me/quotes/${quote.body.id}/execute`);
    expect({ status: executed.status, action: executed.body.status }).toEqual({ status: 200, action: 'APPROVED' });
    expect((await agent.me.get(`/agents/me/external-accounts/${agent.external}`)).status).toBe(200);
    expect((await balances()).other).toBe(start.other);
    expect((await balances()).own).toBeLessThan(start.own);
    await expectBalancedLedger(t.service.infra.eventStore, platformId);
  });

  it('allowedAccountIds holds for both ends: a payment into a customer’s account outside the list is 403', async () => {
    const customer = await a.m.customer(['USD', 'EUR']);
    await a.m.fund(customer.accounts.USD, 10_000);
    const { deviceCode } = await a.create(
      customer.id,
      policy({ accountRestrictions: { allowedAccountIds: [customer.accounts.USD] } }),
    );
    const me = a.bearer((await a.redeem(deviceCode.code)).body.accessToken);
    const platformId = t.service.sandbox!.platformId;
    const before = await snapshot(t, api, platformId);
    for (const immediatelyExecute of [false, true]) {
      const res = await me.post(
        '/agents/me/quotes',
        accountQuoteBody(customer.accounts.USD, customer.accounts.EUR, 500, { immediatelyExecute }),
      );
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    }
    expect(await snapshot(t, api, platformId)).toEqual(before);
    expect(await a.m.balance(customer.accounts.EUR)).toBe(0);
    // Both accounts allowed: the same payment goes through.
    const patched = await api.patch(`/agents/${(await me.get('/agents/me')).body.id}/policy`, {
      accountRestrictions: { allowedAccountIds: [customer.accounts.USD, customer.accounts.EUR] },
    });
    expect(patched.status).toBe(200);
    const res = await me.post(
      '/agents/me/quotes',
      accountQuoteBody(customer.accounts.USD, customer.accounts.EUR, 500, { immediatelyExecute: true }),
    );
    expect({ status: res.status, quote: res.body.status }).toEqual({ status: 201, quote: 'COMPLETED' });
    expect(await a.m.balance(customer.accounts.EUR)).toBeGreaterThan(0);
  });

  it('an action waiting for approval is decided again on both ends: a since restricted account fails it', async () => {
    const customer = await a.m.customer(['USD', 'EUR']);
    await a.m.fund(customer.accounts.USD, 10_000);
    const both = { allowedAccountIds: [customer.accounts.USD, customer.accounts.EUR] };
    const { agent: created, deviceCode } = await a.create(
      customer.id,
      policy({ defaultExecutionMode: 'APPROVAL_REQUIRED', accountRestrictions: both }),
    );
    const me = a.bearer((await a.redeem(deviceCode.code)).body.accessToken);
    const quote = await me.post(
      '/agents/me/quotes',
      accountQuoteBody(customer.accounts.USD, customer.accounts.EUR, 500),
    );
    expect(quote.status).toBe(201);
    const pending = await me.post(`/agents/me/quotes/${quote.body.id}/execute`);
    expect({ status: pending.status, action: pending.body.status }).toEqual({
      status: 200,
      action: 'PENDING_APPROVAL',
    });
    const restricted = await api.patch(`/agents/${created.id}/policy`, {
      accountRestrictions: { allowedAccountIds: [customer.accounts.USD] },
    });
    expect(restricted.status).toBe(200);
    const approved = await api.post(`/agents/${created.id}/actions/${pending.body.id}/approve`);
    expect({ status: approved.status, action: approved.body.status }).toEqual({ status: 200, action: 'FAILED' });
    expect({ usd: await a.m.balance(customer.accounts.USD), eur: await a.m.balance(customer.accounts.EUR) }).toEqual({
      usd: 10_000,
      eur: 0,
    });
    await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
  });
});
