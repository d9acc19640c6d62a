import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { streams } from '#domain/primitives.js';
import { readPain001 } from '#rails/iso20022/index.js';
import { useTestService } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { RailDriver, USD_RAIL, type RailCustomer } from './bank-rail-support.js';

/**
 * A production platform's bank rail end to end: payouts and pulls go out as ISO 20022 files, stay PROCESSING, and
 * move only when the bank (the simulator, on the same folders) answers.
 */
describe('bank rail (ISO 20022 files) on a production platform', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string };
  let rail: RailDriver;

  const api = () => rail.api;
  const bank = () => rail.bank();
  const customer = () => rail.customer();
  const external = (customerId: string, suffix: string, mandate = true) => rail.external(customerId, suffix, mandate);
  const transaction = (id: string) => rail.transaction(id);
  const settles = (id: string, status: string) => rail.settles(id, status);
  const balance = (accountId: string) => rail.balance(accountId);
  const funded = (amount: number) => rail.funded(amount);
  const outboxHolds = (endToEndId: string) => rail.outboxHolds(endToEndId);
  const payout = (source: string, destination: string, amount: number) => rail.payout(source, destination, amount);

  /** A payout of `amount` from `c`'s USD account to a new external account ending in `suffix`, taken by the bank. */
  const paidOut = async (c: RailCustomer, suffix: string, amount: number) => {
    const quote = await payout(c.usd, await external(c.id, suffix), amount);
    await outboxHolds((await transaction(quote.transactionId)).reconciliationInstructions.reference);
    await bank();
    return quote;
  };

  beforeAll(async () => {
    const platform = await t.otherPlatform({ sandbox: false });
    prod = platform;
    rail = await RailDriver.configure(platform.api, join(t.dataDir, 'bank-state.json'));
  });

  it('refuses payments in a currency without a rail, and rails on sandbox platforms, moving nothing', async () => {
    const c = await customer();
    const eurExternal = await api().post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Ada Lovelace',
          address: { line1: 'Unter den Linden 1', postalCode: '10117', country: 'DE' },
        },
      },
    });
    expect(eurExternal.status).toBe(201);
    const out = await api().post('/transfer-out', {
      source: { accountId: c.eur },
      destination: { accountId: eurExternal.body.id },
      amount: 100,
    });
    expect([out.status, out.body.code]).toEqual([400, 'UNSUPPORTED_PAYMENT_RAIL']);
    const pullIn = await api().post('/transfer-in', {
      source: { accountId: eurExternal.body.id },
      destination: { accountId: c.eur },
      amount: 100,
    });
    expect([pullIn.status, pullIn.body.code]).toEqual([400, 'UNSUPPORTED_PAYMENT_RAIL']);
    // A USD pull without a mandate is refused too.
    const noMandate = await external(c.id, '101', false);
    const refused = await api().post('/transfer-in', {
      source: { accountId: noMandate },
      destination: { accountId: c.usd },
      amount: 100,
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'UNSUPPORTED_PAYMENT_RAIL']);
    expect((await api().get(`/transactions?customerId=${encodeURIComponent(c.id)}`)).body.data).toEqual([]);
    expect(await balance(c.usd)).toBe(0);
    const sandbox = await t.api.patch('/config', { rails: [USD_RAIL] });
    expect([sandbox.status, sandbox.body.code]).toEqual([400, 'INVALID_INPUT']);
  });

  it('credits a pull only when the bank books its collection', async () => {
    const c = await customer();
    const pull = await rail.pull(c.id, c.usd, 10_000);
    const [file] = await outboxHolds(pull.reconciliationInstructions.reference);
    expect(file).toContain('urn:iso:std:iso:20022:tech:xsd:pain.008.001.08');
    expect(await balance(c.usd)).toBe(0);
    await bank();
    await settles(pull.id, 'COMPLETED');
    expect(await balance(c.usd)).toBe(10_000);
  });

  it('reverses a pull the bank returns after booking it', async () => {
    const c = await customer();
    const pull = await rail.pull(c.id, c.usd, 6_000, '005');
    await rail.booked(pull);
    expect(await balance(c.usd)).toBe(6_000);
    await bank();
    const returned = await settles(pull.id, 'FAILED');
    expect(returned).toMatchObject({ failureDetail: 'RETURNED_BY_RECEIVING_BANK', bankReasonCode: expect.any(String) });
    expect(await balance(c.usd)).toBe(0);
  });

  it('shows a returned pull the spent account cannot cover, and goes on taking the bank’s files', async () => {
    const c = await customer();
    const pull = await rail.pull(c.id, c.usd, 4_000, '005');
    await rail.booked(pull);
    // The money is paid out again before the bank returns the collection.
    const out = await rail.transferOut(c.usd, await external(c.id, '201'), 4_000);
    await outboxHolds(out.reconciliationInstructions.reference);
    await bank();
    await settles(out.id, 'COMPLETED');
    await rail.inboxEmpty();
    const files = (await api().get('/bank-rails/USD/inbox?limit=100')).body.data;
    const refused = files
      .flatMap((f: any) => f.problems)
      .filter((p: any) => p.entry === `payment ${pull.reconciliationInstructions.reference}`);
    expect(refused).toEqual([expect.objectContaining({ reason: expect.stringContaining('INSUFFICIENT_FUNDS') })]);
    expect((await transaction(pull.id)).status).toBe('COMPLETED');
    expect(await balance(c.usd)).toBe(0);
  });

  it('pays a quote out as one pain.001 entry, PROCESSING until the bank books it', async () => {
    const c = await funded(10_000);
    const destination = await external(c.id, '201');
    const quote = await payout(c.usd, destination, 5_000);
    const tx = await transaction(quote.transactionId);
    expect(tx.status).toBe('PROCESSING');
    const [xml] = await outboxHolds(tx.reconciliationInstructions.reference);
    const written = readPain001(xml);
    const entries = written.payments.flatMap((p) => p.transfers);
    const mine = entries.filter((e) => e.endToEndId === tx.reconciliationInstructions.reference);
    const paid = BigInt(tx.receivedAmount.amount);
    expect(mine).toEqual([expect.objectContaining({ amount: { minor: paid, currency: 'USD' } })]);
    // Held, not gone: the balance moves when the bank books the payout.
    expect(await balance(c.usd)).toBe(10_000);
    await bank();
    const done = await settles(quote.transactionId, 'COMPLETED');
    expect(done.bankReasonCode).toBeUndefined();
    expect(await balance(c.usd)).toBe(5_000);
  });

  it('fails a payout the bank rejects, keeping its reason code and releasing the hold', async () => {
    const c = await funded(3_000);
    const quote = await paidOut(c, '003', 2_000);
    const failed = await settles(quote.transactionId, 'FAILED');
    expect(failed).toMatchObject({ failureReason: 'OFFRAMP_FAILED', bankReasonCode: 'AC04' });
    expect(await balance(c.usd)).toBe(3_000);
  });

  it('refunds a payout returned after it completed', async () => {
    const c = await funded(4_000);
    const quote = await paidOut(c, '005', 1_500);
    await settles(quote.transactionId, 'COMPLETED');
    expect(await balance(c.usd)).toBe(2_500);
    await bank();
    const refunded = await settles(quote.transactionId, 'REFUNDED');
    expect(refunded).toMatchObject({ failureDetail: 'RETURNED_BY_RECEIVING_BANK', bankReasonCode: 'AC06' });
    expect(await balance(c.usd)).toBe(4_000);
  });

  it('keeps the production ledger balanced', async () => {
    await expectBalancedLedger(t.service.infra.eventStore, prod.platformId);
    const events = await t.service.infra.eventStore.readStream(streams.bankRail(prod.platformId, 'USD'));
    expect(events.filter((e) => e.type === 'BankFileQuarantined')).toEqual([]);
  });
});
