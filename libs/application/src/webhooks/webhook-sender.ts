import { performance } from 'node:perf_hooks';

export interface SendResult {
  /** The receiver's HTTP status; absent when no response arrived. */
  statusCode?: number;
  latencyMs: number;
  /** At most RESPONSE_EXCERPT_BYTES of the response body (UTF-8). */
  responseBody?: string;
  /** Why no usable response arrived (refused, timeout, ...). */
  error?: string;
}

export const RESPONSE_EXCERPT_BYTES = 1024;

function describe(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout after ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** Reads at most `limit` bytes of a body and drops the rest. */
async function excerpt(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  // Cutting at a byte boundary may split a character: drop the partial one.
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * POSTs one webhook body. Redirects are not followed (a 3xx is a failed attempt); the timeout
 * covers connecting, the reply and reading the excerpt.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: controller.signal });
    const latencyMs = latency();
    let responseBody: string | undefined;
    try {
      responseBody = await excerpt(response.body, RESPONSE_EXCERPT_BYTES);
    } catch {
      // The status counts; a body cut off by the timeout or a reset just has no excerpt.
    }
    return { statusCode: response.status, latencyMs, ...(responseBody !== undefined ? { responseBody } : {}) };
  } catch (error) {
    return { latencyMs: latency(), error: describe(error, timedOut, timeoutMs) };
  } finally {
    clearTimeout(timer);
  }
}
