/**
 * A small typed client for the Payments Platform API: Basic (platform) or Bearer (agent) authentication,
 * the error shape as an exception, Idempotency-Keys, cursor pagination, and the signed retry performed
 * end to end (step 1, stamp, step 2). It needs only `fetch`; stamps come from any stamper with the shape of
 * `@turnkey/api-key-stamper`'s `ApiKeyStamper` holding the session key (see `wallet.ts` for one).
 */
import { PaymentsApiError, type ErrorDetails } from './errors.js';
import type { components } from './generated/openapi.js';

/** Anything that stamps a payload with a session signing key (e.g. `new ApiKeyStamper({...})`). */
export interface Stamper {
  stamp(payload: string): Promise<{ stampHeaderValue: string }>;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** The 202 answer of a signed operation: stamp `payloadToSign`, send the request again with `requestId`. */
export type SignedRetryChallenge = components['schemas']['SignedRetryChallenge'];

export type Query = Record<string, string | number | boolean | string[] | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  /** Sent as `Idempotency-Key`: the same key and request return the first response. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** A platform's API token (HTTP Basic) or an agent's access token (`gat_…`, sent as a Bearer token). */
export type ClientCredentials = { tokenId: string; clientSecret: string } | { accessToken: string };

export type ClientOptions = ClientCredentials & {
  /** Up to and including the version segment, e.g. `https://payments.example.com/2025-10-13`. */
  baseUrl: string;
  fetch?: typeof fetch;
};

export class PaymentsClient {
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.authorization =
      'accessToken' in options
        ? `Bearer ${options.accessToken}`
        : `Basic ${Buffer.from(`${options.tokenId}:${options.clientSecret}`).toString('base64')}`;
    this.fetch = options.fetch ?? fetch;
  }

  /** One HTTP exchange; resolves with the status and body, throws PaymentsApiError for >= 400. */
  async exchange<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {
      authorization: this.authorization,
      accept: 'application/json',
      ...options.headers,
    };
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.fetch(this.baseUrl + path + queryString(options.query), {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    if (res.status >= 400) {
      const e = (body ?? {}) as { code?: string; message?: string; reason?: string; details?: ErrorDetails };
      const retryAfter = res.headers.get('retry-after');
      throw new PaymentsApiError(
        res.status,
        e.code ?? 'HTTP_ERROR',
        e.message ?? `HTTP ${res.status}`,
        e.reason,
        e.details,
        retryAfter ? Number(retryAfter) : undefined,
      );
    }
    return { status: res.status, body: body as T };
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return (await this.exchange<T>(method, path, options)).body;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  patch<T>(path: string, body?: unknown): Promise<T> {
    return this.request<T>('PATCH', path, { body });
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /**
   * Every item of a list endpoint, page after page, following `nextCursor` while `hasMore`:
   * `for await (const c of client.list<Customer>('/customers', { query: { region: 'NL' } }))`.
   * `pageSize` is sent as `limit` (default 100); breaking out of the loop stops fetching.
   */
  async *list<T>(path: string, options: { query?: Query; pageSize?: number } = {}): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages<T>(path, options)) yield* page.data;
  }

  /** The pages of a list endpoint, one request each, following `nextCursor`. */
  async *pages<T>(path: string, options: { query?: Query; pageSize?: number } = {}): AsyncGenerator<Page<T>> {
    let cursor: string | undefined;
    do {
      const query = { limit: options.pageSize ?? 100, ...options.query, ...(cursor ? { cursor } : {}) };
      const page = await this.get<Page<T>>(path, query);
      yield page;
      cursor = page.hasMore ? page.nextCursor : undefined;
    } while (cursor);
  }

  /** `list` with the query as the second argument (a `limit` in it sets the page size). */
  paginate<T>(path: string, query: Query = {}): AsyncGenerator<T, void, undefined> {
    return this.list<T>(path, { query });
  }

  /**
   * A signed operation in one call: sends the request, and when the service answers 202 with a
   * challenge, stamps its `payloadToSign` byte for byte with the session key and sends the same
   * request again with `Service-Wallet-Signature` and `Request-Id`. An operation that needs no
   * signature (e.g. the first credential of an account) resolves with its direct answer.
   */
  async signed<T>(
    method: string,
    path: string,
    body: unknown,
    stamper: Stamper,
    options: Omit<RequestOptions, 'body'> = {},
  ): Promise<T> {
    const first = await this.exchange<T | SignedRetryChallenge>(method, path, { ...options, body });
    if (first.status !== 202) return first.body as T;
    const challenge = first.body as SignedRetryChallenge;
    const { stampHeaderValue } = await stamper.stamp(challenge.payloadToSign);
    const headers = {
      ...options.headers,
      'service-wallet-signature': stampHeaderValue,
      'request-id': challenge.requestId,
    };
    return this.request<T>(method, path, { ...options, body, headers });
  }
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
