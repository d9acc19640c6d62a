import { BankSimulator } from '#rails/bank-simulator.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { poll } from '../poll.js';
import { ok, type Tour } from './tour.js';

const ACCOUNT = { name: 'Example Payments Inc', accountNumber: '7000123456', routingNumber: '021000021' };

/**
 * A production platform's bank rail: configured through PATCH /config, a day's statement dropped into its inbox by
 * the bank (the simulator), the file and the day's reconciliation read back.
 */
export async function bankRailTour({ t, recorder }: Tour): Promise<void> {
  const production = await t.otherPlatform({ sandbox: false });
  const api = recorder.wrap(production.api);
  const rail = { currency: 'USD', type: 'ISO20022_FILES', account: ACCOUNT, creditorSchemeId: 'EXAMPLE01' };
  const [shown] = ok(await api.patch('/config', { rails: [rail] })).body.rails;
  const bank = BankSimulator.create([{ account: ACCOUNT, currency: 'USD', balance: 125_000n }]);
  const statement = bank.endOfDay('2026-04-05');
  await writeFileAtomically(shown.inboxFolder, statement.name, statement.xml);
  await poll(
    async () => (await production.api.get('/bank-rails/USD/reconciliations')).body.data?.length ?? 0,
    (n) => n > 0,
    { what: 'the statement reconciled', timeoutMs: 15_000, intervalMs: 50 },
  );
  ok(await api.get('/bank-rails/USD/inbox?limit=2'));
  ok(await api.get('/bank-rails/USD/reconciliations?limit=2'));

  /** Someone pays in without a reference the service knows: the credit waits in suspense for an operator. */
  const payIn = async (minor: bigint, remittanceInformation: string, payer: string, accountNumber: string) => {
    const debtor = { name: payer, accountNumber, routingNumber: '021000021' };
    bank.incomingCredit({ account: ACCOUNT, amount: { minor, currency: 'USD' }, remittanceInformation, debtor });
    for (const file of bank.process({ files: [], now: new Date('2026-04-06T09:00:00Z') }))
      await writeFileAtomically(shown.inboxFolder, file.name, file.xml);
  };
  await payIn(2_500n, 'invoice 2026-117', 'Grace Hopper', '4400012345');
  const [credit] = (
    await poll(
      async () => (await production.api.get('/bank-rails/USD/exceptions')).body,
      (page) => page.data?.length > 0,
      { what: 'the credit in suspense', timeoutMs: 15_000, intervalMs: 50 },
    )
  ).data;
  ok(await api.get('/bank-rails/USD/exceptions?limit=2'));
  const customer = ok(
    await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'example-rail-customer',
      fullName: 'Grace Hopper',
      kycStatus: 'APPROVED',
    }),
    201,
  ).body;
  const accounts = ok(await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`));
  const usd = accounts.body.data.find(
    (a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD',
  );
  ok(await api.post(`/bank-rails/USD/exceptions/${credit.id}/assign`, { accountId: usd.id }));

  // Another one the operator sends back to whoever paid it.
  await payIn(900n, 'unknown payment', 'Alan Turing', '4400054321');
  const unknown = await poll(
    async () => (await production.api.get('/bank-rails/USD/exceptions')).body.data ?? [],
    (data: { id: string; status: string }[]) => data.some((e) => e.status === 'OPEN'),
    { what: 'the second credit in suspense', timeoutMs: 15_000, intervalMs: 50 },
  );
  const open = unknown.find((e) => e.status === 'OPEN');
  ok(await api.post(`/bank-rails/USD/exceptions/${open?.id}/return`, {}));
}
