import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { BankSimulator } from '#rails/bank-simulator.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { useTestService } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import { RailDriver } from './bank-rail-support.js';

const ACCOUNT = { name: 'Credits Payments', accountNumber: '7000555444', routingNumber: '021000021' };
const PAYER = { name: 'Charles Babbage', accountNumber: '4400012345', routingNumber: '021000021' };

/** Money paid into a production platform's bank account that names no payment: funding references and suspense. */
describe('bank rail incoming credits (camt.054)', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string; api: Client };
  let rail: RailDriver;
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
      await writeFileAtomically(rail.folders.inbox, file.name, file.xml);
  };
  beforeAll(async () => {
    prod = await t.otherPlatform({ sandbox: false });
    const config = { currency: 'USD', type: 'ISO20022_FILES', account: ACCOUNT };
    rail = await RailDriver.configure(prod.api, join(t.dataDir, 'bank-state.json'), undefined, config);
  });

  it('credits the account whose funding reference the credit carries', async () => {
    const target = await rail.customer();
    expect(target.reference).toMatch(/^FUND-[0-9A-F]{8}$/);
    // A production account is paid into at the platform's bank: the rail's account, with the account's reference.
    const shown = (await prod.api.get(`/internal-accounts/${target.usd}`)).body.fundingPaymentInstructions;
    expect(shown).toEqual([
      expect.objectContaining({
        accountOrWalletInfo: expect.objectContaining({
          accountNumber: ACCOUNT.accountNumber,
          routingNumber: ACCOUNT.routingNumber,
          bankName: 'ABA 021000021',
          reference: target.reference,
        }),
      }),
    ]);
    await paidIn(12_345n, `top-up ${target.reference}`);
    await rail.holds(target.usd, 12_345);
    const exceptions = await prod.api.get('/bank-rails/USD/exceptions');
    expect(exceptions.body.data).toEqual([]);
  });

  it('holds a credit that names nothing in suspense until an operator assigns it', async () => {
    const target = await rail.customer();
    const other = await rail.customer();
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
    const assigned = await prod.api.post(path, { accountId: target.usd });
    expect([assigned.status, assigned.body.status, assigned.body.assignedTo]).toEqual([200, 'ASSIGNED', target.usd]);
    await rail.holds(target.usd, 5_000);
    expect((await prod.api.post(path, { accountId: target.usd })).status).toBe(200);
    const twice = await prod.api.post(path, { accountId: other.usd });
    expect([twice.status, twice.body.code]).toEqual([409, 'BANK_CREDIT_ASSIGNED']);
    await rail.holds(target.usd, 5_000);
    await rail.holds(other.usd, 0);
    const foreign = await t.api.post(path, { accountId: target.usd });
    expect(foreign.status).toBe(404);
  });

  it('starts a real-time funded quote its reference names, and holds a second payment of it', async () => {
    const target = await rail.customer();
    const quote = await prod.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: target.usd },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 3_000,
    });
    expect([quote.status, quote.body.status]).toEqual([201, 'PENDING']);
    const reference = quote.body.paymentInstructions[0].accountOrWalletInfo.reference;
    expect(reference).toMatch(/^TX-[0-9A-F]{12}$/);
    const total = BigInt(quote.body.totalSendingAmount);
    await paidIn(total, `payment ${reference}`);
    await rail.holds(target.usd, quote.body.totalReceivingAmount);
    const done = await poll(
      async () => (await prod.api.get(`/quotes/${quote.body.id}`)).body,
      (q) => q.status === 'COMPLETED',
      { what: 'the quote completed', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(done.status).toBe('COMPLETED');
    // The transaction's REALTIME_FUNDING source names the originator as the bank's credit does.
    const source = (await prod.api.get(`/transactions/${quote.body.transactionId}`)).body.source;
    expect(source).toMatchObject({
      sourceType: 'REALTIME_FUNDING',
      accountHolderName: PAYER.name,
      accountIdentifier: PAYER.accountNumber,
      bankIdentifier: PAYER.routingNumber,
      remittanceInformation: `payment ${reference}`,
      traceNumber: expect.any(String),
    });
    await paidIn(total, `again ${reference}`);
    const held = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data,
      (data: any[]) => data.some((e) => e.remittanceInformation === `again ${reference}`),
      { what: 'the second payment held', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(held.find((e: any) => e.remittanceInformation === `again ${reference}`)).toMatchObject({ status: 'OPEN' });
    // The payment that started the quote is not an exception an operator could assign again.
    expect(held.filter((e: any) => e.remittanceInformation === `payment ${reference}`)).toEqual([]);
    await rail.holds(target.usd, quote.body.totalReceivingAmount);
  });

  it('sends a credit in suspense back to its payer, out of suspense only when the bank books the return', async () => {
    await paidIn(1_750n, 'unknown sender');
    const open = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data as any[],
      (data) => data.some((e) => e.remittanceInformation === 'unknown sender'),
      { what: 'the credit in suspense', timeoutMs: 10_000, intervalMs: 20 },
    );
    const credit = open.find((e) => e.remittanceInformation === 'unknown sender');
    const path = `/bank-rails/USD/exceptions/${credit.id}/return`;
    const returning = await prod.api.post(path, {});
    expect([returning.status, returning.body.status]).toEqual([200, 'RETURNING']);
    expect((await prod.api.post(path, {})).body.status).toBe('RETURNING');
    const assign = await prod.api.post(`/bank-rails/USD/exceptions/${credit.id}/assign`, {
      accountId: (await rail.customer()).usd,
    });
    expect([assign.status, assign.body.code]).toEqual([409, 'BANK_CREDIT_RETURNING']);
    // The bank takes the pain.001 carrying the return and books it.
    const files = await poll(
      () => rail.outboxFiles(),
      (list) => list.some((f) => f.xml.includes('<Nm>Charles Babbage</Nm>')),
      { what: 'the return in the outbox', timeoutMs: 10_000, intervalMs: 20 },
    );
    for (const answer of bank.process({ files, now: new Date('2026-03-12T10:00:00Z') }))
      await writeFileAtomically(rail.folders.inbox, answer.name, answer.xml);
    const returned = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data as any[],
      (data) => data.some((e) => e.id === credit.id && e.status === 'RETURNED'),
      { what: 'the return booked', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(returned.find((e) => e.id === credit.id)).toMatchObject({
      status: 'RETURNED',
      returnedAt: expect.any(String),
    });
  });

  it("holds a credit naming a deleted customer's account in suspense, not in the closed account", async () => {
    const gone = await rail.customer();
    expect((await prod.api.delete(`/customers/${gone.id}`)).status).toBe(200);
    await paidIn(700n, `top-up ${gone.reference}`);
    const held = await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data as any[],
      (data) => data.some((e) => e.remittanceInformation === `top-up ${gone.reference}`),
      { what: 'the credit in suspense', timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(held.find((e) => e.remittanceInformation === `top-up ${gone.reference}`)).toMatchObject({
      status: 'OPEN',
      amount: '700',
    });
    await rail.holds(gone.usd, 0);
  });

  it('keeps the ledger balanced', async () => {
    await expectBalancedLedger(t.service.infra.eventStore, prod.platformId);
  });
});
