/**
 * Answers computed in one turn of the event loop, shared by the callers of that turn and forgotten when it ends.
 * The requests and commands a turn handles arrived together, so they may share a read that each would otherwise
 * repeat (a platform's clock stream, a token's record); anything written after the turn is read afresh by the next.
 * A failed answer is not shared: the next caller computes it again.
 */
export class TurnMemo<K, T> {
  private readonly answers = new Map<K, Promise<T>>();
  private turnEnds: NodeJS.Immediate | undefined;

  get(key: K, compute: () => Promise<T>): Promise<T> {
    const shared = this.answers.get(key);
    if (shared) return shared;
    const answer = compute();
    answer.catch(() => {
      if (this.answers.get(key) === answer) this.answers.delete(key);
    });
    this.answers.set(key, answer);
    this.turnEnds ??= setImmediate(() => {
      this.turnEnds = undefined;
      this.answers.clear();
    });
    return answer;
  }

  /** Something `key`'s answer depends on changed in this turn: the next caller computes it again. */
  forget(key: K): void {
    this.answers.delete(key);
  }
}
