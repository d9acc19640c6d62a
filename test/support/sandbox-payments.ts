import { expect } from '@jest/globals';
import type { Client } from './service.js';

/** The sandbox sender whose incoming UMA payments wait for the platform's approval (its `$pending` prefix). */
export const PENDING_SENDER = '$pending.long.USD@bank.example.com';

/** An incoming UMA payment of `amount` USD cents to the customer, PENDING the platform's approval: its answer. */
export async function pendingIncoming(api: Client, customerId: string, amount: number) {
  const res = await api.post('/sandbox/uma/receive', {
    senderUmaAddress: PENDING_SENDER,
    customerId,
    receivingCurrencyCode: 'USD',
    receivingCurrencyAmount: amount,
  });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('PENDING');
  return res.body as { id: string; status: string } & Record<string, unknown>;
}
