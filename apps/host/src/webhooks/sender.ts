import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import { effectivePort, type AllowedHost } from '#net/address-policy.js';
import {
  resolveTarget,
  systemResolver,
  type ResolvedAddress,
  type Resolver,
  type Target,
} from '#net/resolve-target.js';

export interface SendResult {
  /** The receiver's HTTP status; absent when no response arrived. */
  statusCode?: number;
  latencyMs: number;
  /** At most RESPONSE_EXCERPT_BYTES of the response body (UTF-8): what is recorded and shown. */
  responseBody?: string;
  /** At most REPLY_MAX_BYTES of the response body: what an approval reply is read from (never recorded). */
  reply?: string;
  /**
   * Shown to the platform when no response arrived: always UNREACHABLE, so a refused address, a
   * closed port and a timeout cannot be told apart (no probing of networks through webhooks).
   */
  error?: string;
  /** The real reason (refused address, socket error, timeout): for operators' logs only. */
  cause?: string;
}

export const RESPONSE_EXCERPT_BYTES = 1024;
/** Replies are read up to this size (an approval reply's `receiverCustomerInfo`); the rest is not read. */
export const REPLY_MAX_BYTES = 16 * 1024;

export interface SendOptions {
  timeoutMs: number;
  /** Hosts the operator trusts whatever they resolve to (`WEBHOOK_ALLOWED_HOSTS`). */
  allowedHosts: readonly AllowedHost[];
  /** DNS (injected in tests); every answer is vetted. */
  resolve?: Resolver;
}

// Keep-alive like fetch had; a reused socket was connected to an address vetted for the same host.
const agents = {
  http: new HttpAgent({ keepAlive: true, timeout: 5000 }),
  https: new HttpsAgent({ keepAlive: true, timeout: 5000 }),
};

/** Hands the socket exactly the vetted addresses instead of asking DNS again (no rebinding in between). */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as LookupFunction;
}

function socketCause(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e?.code ? `${e.code}${e.message ? `: ${e.message}` : ''}` : String(e?.message ?? error);
}

/** A response being read: its status, when it began, and the body so far. */
interface ResponseSoFar {
  statusCode: number;
  latencyMs: number;
  chunks: Buffer[];
  size: number;
}

/** The URL to send to, or why it cannot be sent to. */
function parseTarget(url: string): URL | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `protocol ${target.protocol}`;
  return target;
}

/** One POST under way: settles once, with the response (or what arrived of it) or the cause of no response. */
class WebhookPost {
  private readonly started = performance.now();
  private finished = false;
  private request: ClientRequest | undefined;
  private response: ResponseSoFar | undefined;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly settle: (result: SendResult) => void,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.request?.destroy();
      // The status counts; a body cut off by the timeout keeps what arrived.
      if (this.response) this.answered();
      else this.fail(`timeout after ${timeoutMs} ms`);
    }, timeoutMs);
  }

  fail(cause: string): void {
    this.finish({ latencyMs: this.latency(), error: UNREACHABLE, cause });
  }

  /** Sends the body to the vetted addresses (unless the attempt already finished, e.g. timed out while resolving). */
  send(target: URL, vetted: Target, body: string, headers: Record<string, string>): void {
    if (this.finished) return;
    if (!vetted.ok) {
      return this.fail(
        vetted.reason === 'unresolved' ? 'the host did not resolve' : `address refused: ${vetted.reason}`,
      );
    }
    const https = target.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const length = Buffer.byteLength(body);
    this.request = send(
      {
        hostname: vetted.hostname,
        port: effectivePort(target),
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'user-agent': 'payments-webhooks/1', ...headers, 'content-length': String(length) },
        agent: https ? agents.https : agents.http,
        lookup: pinnedLookup(vetted.addresses),
      },
      (res) => this.read(res),
    );
    this.request.on('error', (error) => (this.response ? this.answered() : this.fail(socketCause(error))));
    this.request.end(body);
  }

  private read(res: IncomingMessage): void {
    const response: ResponseSoFar = { statusCode: res.statusCode ?? 0, latencyMs: this.latency(), chunks: [], size: 0 };
    this.response = response;
    res.on('data', (chunk: Buffer) => {
      response.chunks.push(chunk);
      response.size += chunk.byteLength;
      if (response.size >= REPLY_MAX_BYTES) {
        res.destroy(); // the rest is not needed
        this.answered();
      }
    });
    const answered = () => this.answered();
    res.on('end', answered);
    res.on('close', answered);
    res.on('error', answered);
  }

  private answered(): void {
    const { statusCode, latencyMs, chunks } = this.response!;
    // Cutting at a byte boundary may split a character: drop the partial one.
    const whole = Buffer.concat(chunks).subarray(0, REPLY_MAX_BYTES);
    const excerpt = whole.subarray(0, RESPONSE_EXCERPT_BYTES);
    const responseBody = excerpt.toString('utf8').replace(/\uFFFD$/, '');
    this.finish({ statusCode, latencyMs, responseBody, reply: whole.toString('utf8') });
  }

  private latency(): number {
    return Math.round(performance.now() - this.started);
  }

  private finish(result: SendResult): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    this.settle(result);
  }
}

/**
 * POSTs one webhook body to a vetted address. The host is resolved once and refused when the
 * address policy refuses it (or any of its addresses); the connection goes to those addresses, with
 * Host and TLS server name set to the URL's host. Redirects are not followed (node:http never
 * does: a 3xx is a failed attempt). The timeout covers resolving, connecting, the reply and reading
 * the excerpt.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  return new Promise<SendResult>((resolve) => {
    const post = new WebhookPost(resolve, options.timeoutMs);
    const target = parseTarget(url);
    if (typeof target === 'string') return post.fail(target);
    const { allowedHosts, resolve: resolver = systemResolver } = options;
    resolveTarget(target, { allowedHosts, resolve: resolver }).then(
      (vetted) => post.send(target, vetted, body, headers),
      (error: unknown) => post.fail(`resolving failed: ${socketCause(error)}`),
    );
  });
}
