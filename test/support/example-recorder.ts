import type { Client, Reply } from './service.js';

/**
 * One operation's examples: the first request body sent (JSON, or a multipart form's fields) and the first JSON
 * answer of each status; `null` for a
 * success whose documented answer has no JSON body (204, a page, a file: the operation was called and answered).
 */
export interface OperationExample {
  request?: unknown;
  responses: Record<string, unknown>;
}

/** What docs/openapi-examples.json holds: examples by `METHOD /path/template`, and webhook payloads by family. */
export interface RecordedExamples {
  operations: Record<string, OperationExample>;
  webhooks: Record<string, unknown>;
}

type Operation = {
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
};
type Document = {
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: WebhookBody }> } } }>;
};
type WebhookBody = { allOf: [unknown, { properties: { type: { enum: string[] } } }] };

/** Items kept of a list's `data` (the example shows the shape, not the whole page). */
const LIST_ITEMS = 2;

/**
 * Records request and response examples from real requests: a client wrapped by `wrap` notes, per operation of the
 * served document (found by method and path template), the first JSON body it sent and the first JSON answer of
 * each status; `webhook` notes the first payload of each webhook family a receiver got.
 */
export class ExampleRecorder {
  readonly recorded: RecordedExamples = { operations: {}, webhooks: {} };
  private readonly routes: { method: string; template: string; pattern: RegExp }[] = [];

  constructor(private readonly document: Document) {
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(
        '^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$',
      );
      for (const method of Object.keys(item)) this.routes.push({ method: method.toUpperCase(), template, pattern });
    }
    // literal segments first: `/customers/internal-accounts` is not `/customers/{customerId}`
    const literal = (t: string) => t.split('/').filter((s) => s && !s.startsWith('{')).length;
    this.routes.sort((a, b) => literal(b.template) - literal(a.template));
  }

  /** The client, recording what goes through it. */
  wrap(api: Client): Client {
    const request = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const reply = await api.request(method, path, body, headers);
      this.note(method, path, body, reply);
      return reply;
    };
    return {
      payments: this.recording(api.payments),
      request,
      get: (p, h) => request('GET', p, undefined, h),
      post: (p, b, h) => request('POST', p, b, h),
      patch: (p, b, h) => request('PATCH', p, b, h),
      delete: (p, h) => request('DELETE', p, undefined, h),
    };
  }

  /**
   * The client package's client of `api`, its calls recorded too (fixtures such as `cardholder` use it): the same
   * client with a fetch that notes each request and its answer. The path is read after the document's base path.
   */
  private recording(payments: Client['payments']): Client['payments'] {
    const original = (payments as unknown as { fetch: typeof fetch }).fetch;
    const recorded = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await original(url, init);
      const path = new URL(String(url)).pathname.replace(/^\/\d{4}-\d{2}-\d{2}/, '');
      const text = await res.clone().text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: only JSON answers are examples
      }
      const sent = typeof init?.body === 'string' ? init.body : undefined;
      this.note(init?.method ?? 'GET', path, sent, { status: res.status, body, headers: res.headers } as Reply);
      return res;
    };
    return Object.assign(Object.create(payments) as Client['payments'], { fetch: recorded });
  }

  /** Notes a webhook payload as its family's example (the first one received). */
  webhook(envelope: { type: string }): void {
    const family = Object.entries(this.document.webhooks ?? {}).find(([, hook]) =>
      hook.post.requestBody.content['application/json'].schema.allOf[1].properties.type.enum.includes(envelope.type),
    )?.[0];
    if (family) this.recorded.webhooks[family] ??= envelope;
  }

  private note(method: string, path: string, body: unknown, reply: Reply): void {
    const bare = path.split('?')[0];
    const route = this.routes.find((r) => r.method === method && r.pattern.test(bare));
    if (!route) return;
    const operation = this.document.paths[route.template][method.toLowerCase()] as Operation;
    const documented = operation.responses?.[reply.status]?.content?.['application/json'] !== undefined;
    const answered = documented && reply.headers.get('content-type')?.includes('application/json');
    if (!answered && !(documented === false && reply.status >= 200 && reply.status < 300)) return;
    const example = (this.recorded.operations[`${method} ${route.template}`] ??= { responses: {} });
    example.request ??= requestExample(operation, body);
    example.responses[reply.status] ??= answered ? trimmed(reply.body) : null;
  }
}

/**
 * The example of a request body: a JSON body as sent; a multipart form as its fields, each file part by the name
 * of the file sent (the bytes are no example).
 */
function requestExample(operation: Operation, body: unknown): unknown {
  const content = operation.requestBody?.content ?? {};
  if (body instanceof FormData)
    return content['multipart/form-data'] === undefined
      ? undefined
      : Object.fromEntries(
          [...body.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : value.name]),
        );
  if (body === undefined || content['application/json'] === undefined) return undefined;
  return typeof body === 'string' ? JSON.parse(body) : body;
}

/** A list's first items only, and secrets blanked (their shape kept: `whsec_AAAA…=`, hex `gat_0000…`). */
function trimmed(body: unknown): unknown {
  if (!body || typeof body !== 'object') return body;
  const copy = JSON.parse(JSON.stringify(body), (key, value) =>
    SECRETS.has(key) && typeof value === 'string'
      ? value.replace(
          /^([a-z]+_)?(.*?)(=*)$/,
          (_, prefix = '', text: string, pad: string) =>
            prefix + (/^[0-9a-f]+$/.test(text) ? '0' : 'A').repeat(text.length) + pad,
        )
      : value,
  ) as { data?: unknown };
  return Array.isArray(copy.data) ? { ...copy, data: copy.data.slice(0, LIST_ITEMS) } : copy;
}

const SECRETS = new Set(['webhookSecret', 'clientSecret', 'accessToken', 'cardProcessorSecret']);
