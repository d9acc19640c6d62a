/**
 * Runs work one at a time per key inside this process, in call order; a failed piece of work does
 * not block the next. Keys with nothing queued hold no memory. Across processes, streams' expected
 * revisions keep writers honest: this only spares conflicts between callers of one process.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or queued. */
  get size(): number {
    return this.tails.size;
  }
}
