/**
 * Pay out to a bank account:
 *
 *   1. a customer with a USD account, funded in the sandbox;
 *   2. the customer's external (bank) account, checked against the beneficiary's name;
 *   3. a quote from the USD account to the bank account (rate, fees and what arrives, valid until `expiresAt`);
 *   4. executing the quote, then reading the transaction it created.
 *
 * The POSTs that move money carry an Idempotency-Key: a retry after a lost answer returns the first result
 * instead of paying twice. In the sandbox, the account number's last three digits select the outcome
 * (`002`-`007` fail in various ways; anything else, like `789` here, succeeds at once).
 *
 * Run: node dist/examples/pay-external-account.js   (sandbox platform; environment: see setup.ts)
 */
import { addUsdBankAccount, fundedUsdCustomer, usd } from './customers.js';
import { check, platformClient, run, show, step, uniqueRef } from './setup.js';
import type { InternalAccount } from './wallet.js';

interface Quote {
  id: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';
  transactionId: string;
  expiresAt: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  exchangeRate: number;
  destination: { paymentRail?: string };
}

interface Money {
  amount: number;
  currency: { code: string; decimals: number };
}

interface Transaction {
  id: string;
  status: string;
  type: 'INCOMING' | 'OUTGOING';
  sentAmount: Money;
  receivedAmount: Money;
  destination: { accountId?: string };
  reconciliationInstructions?: { reference: string };
  failureReason?: string;
}

run('pay-external-account', async () => {
  const client = platformClient();

  step('Create a customer and fund its USD account (sandbox)');
  const { customer, account: source } = await fundedUsdCustomer(
    client,
    { ref: 'payer', fullName: 'Katherine Johnson' },
    50_000,
  );
  show('customer', customer.id);
  show('account', `${source.id} funded with ${usd(50_000)}`);

  step('Add the customer’s bank account');
  const bank = await addUsdBankAccount(client, customer.id, {
    fullName: 'Katherine Johnson',
    accountNumber: '000123456789',
  });
  show('bank account', bank.id);
  show('beneficiary', bank.beneficiaryVerificationStatus);

  step('Quote 125.00 USD to the bank account');
  const quote = await client.post<Quote>(
    '/quotes',
    {
      source: { sourceType: 'ACCOUNT', accountId: source.id },
      destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 12_500,
      description: 'Example payout',
    },
    { idempotencyKey: uniqueRef('quote') },
  );
  show('quote', quote.id);
  show('rail', quote.destination.paymentRail);
  show('sending', usd(quote.totalSendingAmount));
  show('fees', usd(quote.feesIncluded));
  show('receiving', usd(quote.totalReceivingAmount));
  show('valid until', quote.expiresAt);

  step('Execute the quote');
  const executed = await client.post<Quote>(`/quotes/${quote.id}/execute`, undefined, {
    idempotencyKey: uniqueRef('execute'),
  });
  show('quote status', executed.status);
  check(executed.status !== 'FAILED', 'the payment failed');

  step('Read the transaction');
  const transaction = await client.get<Transaction>(`/transactions/${executed.transactionId}`);
  show('transaction', transaction.id);
  show('status', transaction.status);
  show('sent', usd(transaction.sentAmount.amount));
  show('received', usd(transaction.receivedAmount.amount));
  show('reference', transaction.reconciliationInstructions?.reference);
  check(transaction.destination.accountId === bank.id, 'the transaction went somewhere else');
  check(
    transaction.status === 'COMPLETED' || transaction.status === 'PROCESSING',
    `the transaction is ${transaction.status} ${transaction.failureReason ?? ''}`,
  );
  const after = await client.get<InternalAccount>(`/internal-accounts/${source.id}`);
  show('balance now', usd(after.balance.amount));

  return {
    customerId: customer.id,
    accountId: source.id,
    externalAccountId: bank.id,
    quoteId: quote.id,
    transactionId: transaction.id,
  };
});
