/**
 * The customer every money-moving example starts from: an individual with a USD internal account funded in the
 * sandbox, and, where money goes out, a USD bank account of its own.
 */
import type { Page, PaymentsClient } from '@payments-platform/client';
import { check, uniqueRef } from './setup.js';
import type { InternalAccount } from './wallet.js';

export interface ExternalAccount {
  id: string;
  status: string;
  currency: string;
  beneficiaryVerificationStatus?: string;
}

/** An amount in cents, as USD text ("12.50 USD"). */
export const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/** Creates an INDIVIDUAL customer with a USD account and funds that account with `amount` cents (sandbox). */
export async function fundedUsdCustomer(
  client: PaymentsClient,
  person: { ref: string; fullName: string; email?: string },
  amount: number,
): Promise<{ customer: { id: string }; account: InternalAccount }> {
  const customer = await client.post<{ id: string }>('/customers', {
    platformCustomerId: uniqueRef(person.ref),
    customerType: 'INDIVIDUAL',
    fullName: person.fullName,
    ...(person.email ? { email: person.email } : {}),
    currencies: ['USD'],
  });
  const accounts = await client.get<Page<InternalAccount>>('/customers/internal-accounts', {
    customerId: customer.id,
    currency: 'USD',
  });
  const account = accounts.data[0];
  check(account, 'the customer has no USD account');
  await client.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount }, { idempotencyKey: uniqueRef('fund') });
  return { customer, account };
}

/** Adds a USD bank account (ACH routing number) of the customer, `fullName` its beneficiary. */
export function addUsdBankAccount(
  client: PaymentsClient,
  customerId: string,
  beneficiary: { fullName: string; accountNumber: string },
): Promise<ExternalAccount> {
  return client.post<ExternalAccount>(
    '/customers/external-accounts',
    {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: beneficiary.accountNumber,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: beneficiary.fullName },
      },
    },
    { idempotencyKey: uniqueRef('bank') },
  );
}
