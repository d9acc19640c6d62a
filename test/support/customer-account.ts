import { expect } from '@jest/globals';
import type { Client } from './service.js';

/** An individual customer created with `body` (a 201 expected), and its first internal account (USD by default). */
export async function customerWithAccount(
  api: Client,
  body: { platformCustomerId: string; fullName?: string; email?: string; currencies?: string[] },
): Promise<{ customerId: string; accountId: string }> {
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', ...body });
  expect(customer.status).toBe(201);
  const customerId = customer.body.id as string;
  const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  return { customerId, accountId: accounts.body.data[0].id as string };
}
