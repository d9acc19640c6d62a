/**
 * The bulk imports one process works on at once: at most `perProcess` in all and `perPlatform` of one platform.
 * `acquire` waits for a slot; a freed slot goes to the longest-waiting caller whose platform is under its own bound,
 * so that one platform's queue of imports never keeps another platform's import waiting behind it.
 */
export class ImportSlots {
  private running = 0;
  private readonly byPlatform = new Map<string, number>();
  private readonly waiting: { platformId: string; grant: () => void }[] = [];

  constructor(
    readonly perProcess: number,
    readonly perPlatform: number,
  ) {}

  /** Takes a slot without waiting, or answers undefined when none is free for this platform. */
  tryAcquire(platformId: string): (() => void) | undefined {
    if (!this.free(platformId)) return undefined;
    return this.take(platformId);
  }

  /** Waits for a slot (in order of arrival, among the platforms under their bound); resolves to its release. */
  acquire(platformId: string): Promise<() => void> {
    const now = this.waiting.length === 0 ? this.tryAcquire(platformId) : undefined;
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.waiting.push({ platformId, grant: () => resolve(this.take(platformId)) }));
  }

  private free(platformId: string): boolean {
    return this.running < this.perProcess && (this.byPlatform.get(platformId) ?? 0) < this.perPlatform;
  }

  private take(platformId: string): () => void {
    this.running += 1;
    this.byPlatform.set(platformId, (this.byPlatform.get(platformId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = this.byPlatform.get(platformId)! - 1;
      if (left === 0) this.byPlatform.delete(platformId);
      else this.byPlatform.set(platformId, left);
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.perProcess;) {
      const next = this.waiting[i];
      if (this.free(next.platformId)) {
        this.waiting.splice(i, 1);
        next.grant();
      } else {
        i += 1;
      }
    }
  }
}
