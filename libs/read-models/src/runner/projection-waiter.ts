/** Lets a writer wait until the read models include its write (read-your-writes). */
export interface ProjectionWaiter {
  /** `projections`: only these read models count (default all). */
  waitForPosition(position: bigint, timeoutMs: number, projections?: string[]): Promise<boolean>;
}
