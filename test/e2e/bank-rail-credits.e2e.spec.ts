import { beforeAll, describe, expect, it } from '@jest/globals';
import { BankSimulator } from '#rails/bank-simulator.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { useTestService } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import { uniqueValue } from '../support/sequence.js';

const ACCOUNT = { name: 'Credits Payments', accountNumber: '7000555444', routingNumber: '021000021' };
const PAYER = { name: 'Charles Babbage', accountNumber: '4400012345', routingNumber: '021000021' };

/** Money paid into a production platform's bank account that names no payment: funding references and suspense. */
describe('bank rail incoming credits (camt.054)', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string; api: Client };
  let inbox: string;
  const bank = BankSimulator.create([{ account: ACCOUNT, currency: 'USD', balance: 0n }]);

  /** The bank notifies a credit of `amount` with `remittance`. */
  const paidIn = async (amount: bigint, remittance: string) => {
    bank.incomingCredit({
      account: ACCOUNT,
      amount: { minor: amount, currency: 'USD' },
      remittanceInformation: remittance,
      debtor: PAYER,
    });
    for (const file of bank.process({ files: [], now: new Date('2026-03-11T10:00:00Z') }))
      await writeFileAtomically(inbox, file.name, file.xml);
  };
  const account = async () => {
    const c = await prod.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('credit'),
      fullName: 'Ada Lovelace',
      kycStatus: 'APPROVED',
    });
    const list = await prod.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`);
    return list.body.data.find((a: any) => a.balance.currency.code === 'USD');
  };
  const balance = (id: string, amount: number) =>
    poll(
      async () => (await prod.api.get(`/internal-accounts/${id}`)).body.balance.amount,
      (n) => n === amount,
      { what: `${id} holding ${amount}`, timeoutMs: 10_000, intervalMs: 20 },
    );

  beforeAll(async () => {
    prod = await t.otherPlatform({ sandbox: false });
    const rail = { currency: 'USD', type: 'ISO20022_FILES', account: ACCOUNT };
    const patched = await prod.api.patch('/config', { rails: [rail] });
    expect(patched.status).toBe(200);
    inbox = patched.body.rails[0].inboxFolder;
  });

  it('credits the account whose funding reference the credit carries', async () => {
    const target = await account();
    const reference = target.fundingPaymentInstructions[0].accountOrWalletInfo.reference;
    expect(reference).toMatch(/^FUND-[0-9A-F]{8}$/);
    await paidIn(12_345n, `top-up ${reference}`);
    await balance(target.id, 12_345);
    const exceptions = await prod.api.get('/bank-rails/USD/exceptions');
    expect(exceptions.body.data).toEqual([]);
  });

  it('holds a credit that names nothing in suspense until an operator assigns it', async () => {
    const target = await account();
    const other = await account();
    await paidIn(5_000n, 'invoice 42');
    const listed = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body,
      (page) => page.data?.length === 1,
      { what: 'the credit in suspense', timeoutMs: 10_000, intervalMs: 20 },
    );
    const [open] = listed.data;
    expect(open).toMatchObject({
      status: 'OPEN',
      amount: '5000',
      currency: 'USD',
      remittanceInformation: 'invoice 42',
    });
    const path = `/bank-rails/USD/exceptions/${open.id}/assign`;
    const bad = await prod.api.post(path, { accountId: 'nope' });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_INPUT']);
    const assigned = await prod.api.post(path, { accountId: target.id });
    expect([assigned.status, assigned.body.status, assigned.body.assignedTo]).toEqual([200, 'ASSIGNED', target.id]);
    await balance(target.id, 5_000);
    expect((await prod.api.post(path, { accountId: target.id })).status).toBe(200);
    const twice = await prod.api.post(path, { accountId: other.id });
    expect([twice.status, twice.body.code]).toEqual([409, 'BANK_CREDIT_ASSIGNED']);
    await balance(target.id, 5_000);
    await balance(other.id, 0);
    const foreign = await t.api.post(path, { accountId: target.id });
    expect(foreign.status).toBe(404);
  });

  it('starts a real-time funded quote its reference names, and holds a second payment of it', async () => {
    const target = await account();
    const quote = await prod.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: target.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 3_000,
    });
    expect([quote.status, quote.body.status]).toEqual([201, 'PENDING']);
    const reference = quote.body.paymentInstructions[0].accountOrWalletInfo.reference;
    expect(reference).toMatch(/^TX-[0-9A-F]{12}$/);
    const total = BigInt(quote.body.totalSendingAmount);
    await paidIn(total, `payment ${reference}`);
    await balance(target.id, quote.body.totalReceivingAmount);
    const done = await poll(
      async () => (await prod.api.get(`/quotes/${quote.body.id}`)).body,
      (q) => q.status === 'COMPLETED',
      { what: 'the quote completed', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(done.status).toBe('COMPLETED');
    await paidIn(total, `again ${reference}`);
    const held = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data,
      (data: any[]) => data.some((e) => e.remittanceInformation === `again ${reference}`),
      { what: 'the second payment held', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(held.find((e: any) => e.remittanceInformation === `again ${reference}`)).toMatchObject({ status: 'OPEN' });
    // The payment that started the quote is not an exception an operator could assign again.
    expect(held.filter((e: any) => e.remittanceInformation === `payment ${reference}`)).toEqual([]);
    await balance(target.id, quote.body.totalReceivingAmount);
  });

  it('keeps the ledger balanced', async () => {
    await expectBalancedLedger(t.service.infra.eventStore, prod.platformId);
  });
});
