import { expect } from '@jest/globals';
import type { ManualClock } from '#domain/clock.js';
import type { Reply } from './service.js';

/**
 * Requests a test sends one second apart on its clock (so their createdAt order them): the returned function moves
 * the clock a second on, sends the request, expects it answered with `status` and gives its body.
 */
export const steppedRequests =
  (clock: ManualClock) =>
  async (status: number, send: () => Promise<Reply>): Promise<Reply['body']> => {
    clock.advance(1000);
    const res = await send();
    expect(res.status).toBe(status);
    return res.body;
  };
