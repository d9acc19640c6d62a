import type { StreamingRead } from '@eventstore/db-client';

/**
 * Visits a read until `visit` returns false, then cancels the gRPC call: leaving a `for await` early only destroys
 * the client's Transform, while the server would go on streaming the rest of the page into it.
 */
export async function consume<E>(read: StreamingRead<E>, visit: (resolved: E) => boolean): Promise<number> {
  let seen = 0;
  let complete = false;
  try {
    for await (const resolved of read) {
      seen += 1;
      if (!visit(resolved)) return seen;
    }
    complete = true;
    return seen;
  } finally {
    if (!complete) await read.cancel().catch(() => undefined);
  }
}
