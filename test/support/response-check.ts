import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: { requestBody: { content: { 'application/json': { schema: WebhookBody } } } } }>;
};
type WebhookBody = { allOf: [unknown, { properties: { type: { enum: string[] } } }] };

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** JSON pointer escaping of one path segment. */
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks answers against the served OpenAPI document: the operation is found by method and path template, and a
 * JSON body is validated (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it) against the response schema of its
 * status. A route the document does not have is a finding too, unless the service itself answered that it has no
 * such route (404 NOT_FOUND).
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly routes: { method: string; template: string; pattern: RegExp }[] = [];
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(private readonly document: Document) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(document as object, 'doc');
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(
        '^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]*') + '$',
      );
      for (const method of Object.keys(item)) {
        if (VERBS.has(method)) this.routes.push({ method: method.toUpperCase(), template, pattern });
      }
    }
    // Literal segments before parameters: `/customers/internal-accounts` is not `/customers/{customerId}`.
    this.routes.sort((a, b) => specificity(b.template) - specificity(a.template));
  }

  /** What is wrong with this answer, or undefined when it matches the document. */
  check(method: string, path: string, status: number, body: unknown, contentType: string | null): string | undefined {
    const bare = path.split('?')[0].split('#')[0];
    const route = this.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(bare));
    if (!route) {
      const unknownRoute = status === 404 && (body as { code?: string } | undefined)?.code === 'NOT_FOUND';
      // Methods the document does not list answer 404 or 405 from the framework: the test asked for one on purpose.
      return unknownRoute || status === 405 ? undefined : `${method} ${bare} (${status}) is not in the document`;
    }
    if (!contentType?.includes('application/json') || body === undefined) return undefined;
    const validate = this.validator(route.method.toLowerCase(), route.template, status);
    if (!validate) return undefined;
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
    return `${method} ${route.template} ${status}: ${errors.join('; ')}`;
  }

  /** What is wrong with a webhook's body, checked against the document's `webhooks:` entry for its type. */
  checkWebhook(envelope: { type?: unknown } | undefined): string | undefined {
    const type = String(envelope?.type);
    const entry = Object.entries(this.document.webhooks ?? {}).find(([, hook]) =>
      hook.post.requestBody.content['application/json'].schema.allOf[1].properties.type.enum.includes(type),
    );
    if (!entry) return `webhook type ${type} is not in the document's webhooks`;
    const key = `webhook ${entry[0]}`;
    if (!this.compiled.has(key)) {
      const path = `doc#/webhooks/${pointer(entry[0])}/post/requestBody/content/application~1json/schema`;
      this.compiled.set(key, this.ajv.compile({ $ref: path }));
    }
    const validate = this.compiled.get(key)!;
    if (validate(envelope)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
    return `webhook ${type}: ${errors.join('; ')}`;
  }

  private validator(verb: string, template: string, status: number): ValidateFunction | null {
    const key = `${verb} ${template} ${status}`;
    if (!this.compiled.has(key)) {
      const responses = this.document.paths[template][verb].responses ?? {};
      const code = [String(status), `${String(status)[0]}XX`, 'default'].find((c) => responses[c]);
      const schema = code ? responses[code].content?.['application/json']?.schema : undefined;
      const ref = `doc#/paths/${pointer(template)}/${verb}/responses/${code}/content/application~1json/schema`;
      this.compiled.set(key, schema ? this.ajv.compile({ $ref: ref }) : null);
    }
    return this.compiled.get(key)!;
  }
}

function specificity(template: string): number {
  return template.split('/').reduce((n, s) => n + (s.startsWith('{') ? 0 : 10), 0);
}

let shared: Promise<ResponseChecker> | undefined;
let loaded: ResponseChecker | undefined;

/** The checker, once a test client has loaded the document (webhook receivers check what they receive with it). */
export const loadedChecker = (): ResponseChecker | undefined => loaded;

/** The checker for the service at `baseUrl` (the document is the same build for every service of a test run). */
export function responseChecker(baseUrl: string): Promise<ResponseChecker> {
  shared ??= fetch(`${baseUrl}/openapi.json`)
    .then((r) => r.json())
    .then((doc) => (loaded = new ResponseChecker(doc as Document)));
  return shared;
}
