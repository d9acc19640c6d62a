import { expect } from '@jest/globals';
import { uniqueDigits } from '../support/sequence.js';
import type { Reply } from '../support/service.js';
import { emailOtpSession, signedRequest } from '../support/wallet-session.js';
import { confirmCase } from './idempotency-confirm-case.js';
import { bulkUploadCase } from './idempotency-upload-case.js';
import { caseOf, keyed, merchant, ownerBody, unique, type Fixtures } from './idempotency-fixtures.js';
import { usd } from './external-account-support.js';

/** A request of a case: path under the base path, and its JSON body (none for action endpoints). */
export interface Req {
  path: string;
  body?: unknown;
}

export interface Prepared {
  request: Req;
  /** Another request (other body, or other path for bodiless actions) sent with the same key: 422. */
  other: Req;
  /** A number the request changes exactly once: a count of resources, or a balance. */
  effect(): Promise<number>;
  delta: number;
  /** Response fields shown once: absent from the replay. */
  secretsOnce?: string[];
  /** How the request is sent when it is not a plain POST (a signed retry). */
  send?(req: Req, headers: Record<string, string>): Promise<Reply>;
}

export interface Case {
  /** The operation as the OpenAPI document names its path. */
  op: string;
  status: number;
  setup(f: Fixtures): Promise<Prepared>;
}

export { DECLARED_ELSEWHERE, EXCLUDED } from './idempotency-exclusions.js';
import { UPLOAD_CASES } from './idempotency-upload-cases.js';

const enc = encodeURIComponent;
const post = (path: string, body?: unknown): Req => ({ path, body });
/** `body` POSTed to `path` as the request; the other request is the same with `change` merged into the body. */
const posts = (path: string, body: object, change: object) => ({
  request: post(path, body),
  other: post(path, { ...body, ...change }),
});

/** Every POST that creates or moves something, with how to see that it ran once. */
export const CASES: Case[] = [
  caseOf('/customers', 201, async (f) => {
    const pcId = unique('pc');
    const body = { customerType: 'INDIVIDUAL', platformCustomerId: pcId, fullName: 'Ada Lovelace' };
    return {
      ...posts('/customers', body, { fullName: 'Ada King' }),
      effect: () => f.total(`/customers?platformCustomerId=${pcId}`),
      delta: 1,
    };
  }),
  bulkUploadCase,
  caseOf('/customers/internal-accounts', 201, async (f) => {
    const c = await f.m.customer(['USD']);
    const body = { customerId: c.id, type: 'INTERNAL_FIAT', currency: 'EUR' };
    return {
      ...posts('/customers/internal-accounts', body, { currency: 'MXN' }),
      effect: () => f.total(`/customers/internal-accounts?customerId=${enc(c.id)}`),
      delta: 1,
    };
  }),
  caseOf('/customers/external-accounts', 201, async (f) => {
    const c = await f.m.customer(['USD']);
    const info = usd('123456789');
    const body = { customerId: c.id, currency: 'USD', accountInfo: info };
    return {
      ...posts('/customers/external-accounts', body, { accountInfo: { ...info, accountNumber: '987654' } }),
      effect: () => f.total(`/customers/external-accounts?customerId=${enc(c.id)}`),
      delta: 1,
    };
  }),
  caseOf('/platform/external-accounts', 201, async (f) => {
    // unique in the file; the suffix 000 has no sandbox outcome
    const accountNumber = `${uniqueDigits('platform-account', 6)}000`;
    const info = usd(accountNumber);
    const body = { currency: 'USD', accountInfo: info };
    return {
      ...posts('/platform/external-accounts', body, { accountInfo: { ...info, routingNumber: '011000015' } }),
      effect: () => f.total('/platform/external-accounts?limit=100'),
      delta: 1,
    };
  }),
  caseOf('/cards', 201, async (f) => {
    const h = await f.holder();
    const body = { customerId: h.id, form: 'VIRTUAL', fundingSources: [h.accounts.USD] };
    return {
      ...posts('/cards', body, { platformCardId: unique('card') }),
      effect: () => f.total(`/cards?customerId=${enc(h.id)}`),
      delta: 1,
    };
  }),
  caseOf('/tokens', 201, async (f) => {
    return {
      request: post('/tokens', { name: 'ci' }),
      other: post('/tokens', { name: 'cd' }),
      effect: () => f.total('/tokens?limit=100'),
      delta: 1,
      secretsOnce: ['clientSecret'],
    };
  }),
  caseOf('/verifications', 200, async (f) => {
    const [c, d] = [await f.m.customer(['USD']), await f.m.customer(['USD'])];
    return {
      request: post('/verifications', { customerId: c.id }),
      other: post('/verifications', { customerId: d.id }),
      effect: () => f.total(`/verifications?customerId=${enc(c.id)}`),
      delta: 1,
    };
  }),
  caseOf('/beneficial-owners', 201, async (f) => {
    const body = ownerBody(await f.business());
    return {
      ...posts('/beneficial-owners', body, { ownershipPercentage: 40 }),
      effect: () => f.total(`/beneficial-owners?customerId=${enc(body.customerId)}`),
      delta: 1,
    };
  }),
  caseOf('/invitations', 201, async (f) => {
    const { uma } = await f.inviter();
    return {
      request: post('/invitations', { inviterUma: uma, firstName: 'Bob' }),
      other: post('/invitations', { inviterUma: uma, firstName: 'Rob' }),
      effect: () => f.total(`/invitations?inviterUma=${enc(uma)}`),
      delta: 1,
    };
  }),
  caseOf('/invitations/{invitationCode}/cancel', 200, async (f) => {
    const { uma, invite } = await f.inviter();
    const [one, two] = [await invite(), await invite()];
    return {
      request: post(`/invitations/${one}/cancel`),
      other: post(`/invitations/${two}/cancel`),
      effect: () => f.total(`/invitations?inviterUma=${enc(uma)}&status=CANCELLED`),
      delta: 1,
    };
  }),
  caseOf('/invitations/{invitationCode}/claim', 200, async (f) => {
    const { uma, invite } = await f.inviter();
    const path = `/invitations/${await invite()}/claim`;
    return {
      request: post(path, { inviteeUma: '$bob@other.example.com' }),
      other: post(path, { inviteeUma: '$rob@other.example.com' }),
      effect: () => f.total(`/invitations?inviterUma=${enc(uma)}&status=CLAIMED`),
      delta: 1,
    };
  }),
  caseOf('/auth/credentials', 201, async (f) => {
    const h = await f.holder();
    const session = await emailOtpSession(f.api, h.wallet.emailOtpId);
    const path = `/auth/credentials?accountId=${enc(h.wallet.accountId)}`;
    const credentials = async () => (await f.api.get(path)).body.data;
    return {
      request: post('/auth/credentials', f.oauthBody(h.wallet.accountId, 'google-1')),
      other: post('/auth/credentials', f.oauthBody(h.wallet.accountId, 'google-2')),
      effect: async () => (await credentials()).filter((c: { type: string }) => c.type === 'OAUTH').length,
      delta: 1,
      // Both steps with the key; once recorded, step 1 already answers the stored 201.
      send: async (req, headers) =>
        (await signedRequest(keyed(f.api, headers), 'POST', req.path, req.body, session)).result,
    };
  }),
  caseOf('/transfer-in', 201, async (f) => {
    const c = await f.m.customer(['USD']);
    const ext = await f.m.external(c.id, 'USD', '777');
    const body = { source: { accountId: ext }, destination: { accountId: c.accounts.USD }, amount: 500 };
    return {
      ...posts('/transfer-in', body, { amount: 501 }),
      effect: () => f.m.balance(c.accounts.USD),
      delta: 500,
    };
  }),
  caseOf('/transfer-out', 201, async (f) => {
    const c = await f.m.customer(['USD']);
    await f.m.fund(c.accounts.USD, 5_000);
    const ext = await f.m.external(c.id, 'USD', '777');
    const body = { source: { accountId: c.accounts.USD }, destination: { accountId: ext }, amount: 2_000 };
    return {
      ...posts('/transfer-out', body, { amount: 2_001 }),
      effect: () => f.m.balance(c.accounts.USD),
      delta: -2_000,
    };
  }),
  caseOf('/transactions/{transactionId}/approve', 200, async (f) => {
    const { c, one, two } = await f.pendingIncoming();
    return {
      request: post(`/transactions/${one}/approve`),
      other: post(`/transactions/${two}/approve`),
      effect: () => f.m.balance(c.accounts.USD),
      delta: 7_000,
    };
  }),
  caseOf('/transactions/{transactionId}/reject', 200, async (f) => {
    const { c, one, two } = await f.pendingIncoming();
    return {
      request: post(`/transactions/${one}/reject`),
      other: post(`/transactions/${two}/reject`),
      effect: () => f.total(`/transactions?customerId=${enc(c.id)}&status=REJECTED`),
      delta: 1,
    };
  }),
  confirmCase,
  caseOf('/sandbox/internal-accounts/{accountId}/fund', 200, async (f) => {
    const c = await f.m.customer(['USD']);
    const path = `/sandbox/internal-accounts/${c.accounts.USD}/fund`;
    return {
      request: post(path, { amount: 1_000 }),
      other: post(path, { amount: 1_001 }),
      effect: () => f.m.balance(c.accounts.USD),
      delta: 1_000,
    };
  }),
  caseOf('/sandbox/send', 200, async (f) => {
    const c = await f.m.customer(['USD', 'EUR']);
    const ext = await f.m.external(c.id, 'USD', '444');
    const q = (await f.m.accountQuote(ext, c.accounts.EUR, 20_000)).body;
    const body = { quoteId: q.id, currencyCode: 'USD' };
    return {
      ...posts('/sandbox/send', body, { currencyAmount: q.totalSendingAmount }),
      effect: () => f.m.balance(c.accounts.EUR),
      delta: q.totalReceivingAmount,
    };
  }),
  caseOf('/sandbox/uma/receive', 200, async (f) => {
    const c = await f.m.customer(['USD']);
    const sender = '$alice@other.example.com';
    const amount = { receivingCurrencyCode: 'USD', receivingCurrencyAmount: 7_000 };
    const body = { senderUmaAddress: sender, customerId: c.id, ...amount };
    return {
      ...posts('/sandbox/uma/receive', body, { receivingCurrencyAmount: 7_001 }),
      effect: () => f.m.balance(c.accounts.USD),
      delta: 7_000,
    };
  }),
  caseOf('/sandbox/cards/{id}/simulate/authorization', 200, async (f) => {
    const { card, usd } = await f.activeCard(5_000);
    const path = `/sandbox/cards/${card}/simulate/authorization`;
    return {
      request: post(path, { amount: 800, currency: { code: 'USD' }, merchant }),
      other: post(path, { amount: 801, currency: { code: 'USD' }, merchant }),
      effect: () => f.freeBalance(usd),
      delta: -800,
    };
  }),
  caseOf('/sandbox/cards/{id}/simulate/clearing', 200, async (f) => {
    const { card, usd } = await f.activeCard(5_000);
    const cardTransactionId = await f.authorize(card, 800);
    const path = `/sandbox/cards/${card}/simulate/clearing`;
    return {
      request: post(path, { cardTransactionId }),
      other: post(path, { cardTransactionId, amount: 700 }),
      effect: () => f.m.balance(usd),
      delta: -800,
    };
  }),
  caseOf('/sandbox/cards/{id}/simulate/return', 200, async (f) => {
    const { card, usd } = await f.activeCard(5_000);
    const cardTransactionId = await f.authorize(card, 800);
    const cleared = await f.api.post(`/sandbox/cards/${card}/simulate/clearing`, { cardTransactionId });
    expect(cleared.status).toBe(200);
    const path = `/sandbox/cards/${card}/simulate/return`;
    return {
      request: post(path, { cardTransactionId, amount: 300 }),
      other: post(path, { cardTransactionId, amount: 200 }),
      effect: () => f.m.balance(usd),
      delta: 300,
    };
  }),
  caseOf('/quotes', 201, async (f) => {
    const [a, b] = [await f.m.customer(['USD']), await f.m.customer(['USD'])];
    const body = {
      source: { sourceType: 'ACCOUNT', accountId: a.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: b.accounts.USD },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 900,
    };
    return {
      ...posts('/quotes', body, { lockedCurrencyAmount: 901 }),
      effect: () => f.total(`/quotes?customerId=${enc(a.id)}`),
      delta: 1,
    };
  }),
  caseOf('/quotes/{quoteId}/execute', 200, async (f) => {
    const [a, b] = [await f.m.customer(['USD']), await f.m.customer(['USD'])];
    await f.m.fund(a.accounts.USD, 5_000);
    const quote = async () => (await f.m.accountQuote(a.accounts.USD, b.accounts.USD, 1_000)).body.id as string;
    const [one, two] = [await quote(), await quote()];
    return {
      request: post(`/quotes/${one}/execute`),
      other: post(`/quotes/${two}/execute`),
      effect: () => f.m.balance(a.accounts.USD),
      delta: -1_000,
    };
  }),
  ...UPLOAD_CASES,
];
