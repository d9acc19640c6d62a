/**
 * Reads until `done` holds, on real time (for what the service's workers do in the background), for at most
 * `timeoutMs`. Returns the last value read, for the caller's assertion; with `what`, running out of time throws
 * instead, naming what was awaited.
 */
export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { what?: string; timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const { timeoutMs = 5_000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      if (options.what) throw new Error(`timed out waiting for ${options.what}: ${JSON.stringify(value)}`);
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
