import { Injectable } from '@nestjs/common';

/**
 * Serializes the multi-step money flows of one card inside this process (authorization, clearing,
 * return, close): each reads the card, moves money in the ledger stream, then records the outcome
 * in the card stream, and two of them interleaving on one card could act on a stale view. This only
 * saves conflicts inside one process: across processes a clearing is reserved on the card stream
 * (expected revision) before its ledger legs, which carry ids derived from the authorization.
 */
@Injectable()
export class CardLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(cardId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(cardId) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => undefined);
    this.tails.set(cardId, settled);
    try {
      return await current;
    } finally {
      if (this.tails.get(cardId) === settled) this.tails.delete(cardId);
    }
  }
}
