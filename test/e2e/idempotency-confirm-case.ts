import { caseOf } from './idempotency-fixtures.js';

/**
 * POST /transactions/{transactionId}/confirm in the Idempotency-Key table: the effect is the stored confirmation
 * time in milliseconds (0 before any), which the request sets once to the transaction's creation time.
 */
export const confirmCase = caseOf('/transactions/{transactionId}/confirm', 200, async (f) => {
  const { one } = await f.pendingIncoming();
  const at = (await f.api.get(`/transactions/${one}`)).body.createdAt as string;
  /** The confirmation time in milliseconds, 0 before any. */
  const confirmedAt = async () => {
    const tx = (await f.api.get(`/transactions/${one}`)).body;
    return tx.receiptDeliveryConfirmedAt ? Date.parse(tx.receiptDeliveryConfirmedAt) : 0;
  };
  return {
    request: { path: `/transactions/${one}/confirm`, body: { receiptDeliveryConfirmedAt: at } },
    other: { path: `/transactions/${one}/confirm`, body: {} },
    effect: confirmedAt,
    delta: Date.parse(at),
  };
});
