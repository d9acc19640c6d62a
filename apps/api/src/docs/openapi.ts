import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { API_DOC, IDEMPOTENT, type ApiDocMeta, type DocResponse } from './api-doc.js';
import { listSchema, resourceSchemas, schemaRef } from './resource-schemas.js';
import { webhookDocs } from './webhook-docs.js';

/** A class as the parameter types Nest records: any constructor. */
type Ctor = abstract new (...args: never[]) => unknown;

type Schema = Record<string, unknown>;
type Controller = abstract new (...args: never[]) => unknown;

const BODY = 3;
const QUERY = 4;
const PARAM = 5;

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `details.errors` lists each field.',
  401: 'Authentication failed: `reason` names the failed check.',
  403: 'Not allowed: the API token lacks the permission, or the platform may not do this.',
  404: 'Not found (or owned by another platform).',
  409: 'Conflicts with the resource’s current state.',
  410: 'Gone: the resource was deleted before.',
  413: 'The body or its file is larger than the service accepts (`details.maxFileBytes` for a file).',
  415: 'The body or the file is of a media type this operation does not accept.',
  422: 'Idempotency key reused with a different request.',
  429: 'Rate limited; see `Retry-After`.',
  500: 'Unexpected error.',
};

const IDEMPOTENCY_KEY_PARAMETER: Schema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Makes a retry safe: the first response (status and body, errors included) is kept for 24 hours ' +
    'with a hash of the request; the same key with the same request answers it again with ' +
    '`Idempotent-Replayed: true` and runs nothing, with a different request 422 IDEMPOTENCY_KEY_REUSED. ' +
    'Keys are per platform. Authentication failures, rate limits, server errors and signed-retry ' +
    'challenges (202) are not kept: the signed step is, and its replay runs nothing.',
};

const REPLAYED_HEADER: Schema = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored first response to the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const BINARY: Schema = { type: 'string', format: 'binary' };

/** A multipart/form-data body: the DTO's fields as text parts and one required file part. */
function multipartBody(dto: Schema, multipart: NonNullable<ApiDocMeta['multipart']>): Schema {
  const file = { ...BINARY, description: multipart.description };
  const schema = {
    type: 'object',
    required: [multipart.fileField, ...((dto.required as string[] | undefined) ?? [])],
    properties: { [multipart.fileField]: file, ...((dto.properties as Schema | undefined) ?? {}) },
  };
  return { required: true, content: { 'multipart/form-data': { schema } } };
}

function joinPath(...parts: (string | undefined)[]): string {
  const path = parts
    .filter((p): p is string => Boolean(p) && p !== '/')
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  return '/' + path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function responseContent(r: DocResponse): Schema | undefined {
  if (r.binary) return Object.fromEntries(r.binary.map((type) => [type, { schema: BINARY }]));
  if (!r.schema) return undefined;
  const schema = r.schema.startsWith('list:') ? listSchema(r.schema.slice(5)) : schemaRef(r.schema);
  return { 'application/json': { schema } };
}

/** Turns a query DTO's JSON Schema into OpenAPI query parameters. */
function queryParameters(schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties as Record<string, Schema>) ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

/**
 * Builds the OpenAPI 3.1 document from the controllers themselves: routes from Nest's metadata,
 * request bodies and query parameters from the class-validator DTOs, responses from `@ApiDoc`.
 * The document can never drift from what the service actually routes and validates.
 */
export function buildOpenApiDocument(controllers: Controller[], basePath: string): Schema {
  const dtoSchemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, Schema>;
  // A DTO that only extends another (UpdateCustomerDto) has no metadata of its own: it validates as its parent.
  const schemaName = (type: Ctor | undefined): string | undefined => {
    for (let t = type; t && t !== Function.prototype; t = Object.getPrototypeOf(t) as Ctor) {
      if (dtoSchemas[t.name]) return t.name;
    }
    return undefined;
  };
  const paths: Record<string, Record<string, Schema>> = {};
  const usedDtos = new Set<string>();

  for (const controller of controllers) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const routePath = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (routePath === undefined || method === undefined) continue;
      const doc = Reflect.getMetadata(API_DOC, handler) as ApiDocMeta | undefined;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        { index: number; data?: string }
      >;
      const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as (Ctor | undefined)[];

      const parameters: Schema[] = [];
      let requestBody: Schema | undefined;
      for (const [key, arg] of Object.entries(args)) {
        const kind = Number(key.split(':')[0]);
        const type = types[arg.index];
        if (kind === PARAM && arg.data)
          parameters.push({ name: arg.data, in: 'path', required: true, schema: { type: 'string' } });
        const dto = schemaName(type);
        if (kind === QUERY && dto) parameters.push(...queryParameters(dtoSchemas[dto]));
        if (kind === BODY && dto && doc?.multipart) {
          requestBody = multipartBody(dtoSchemas[dto], doc.multipart);
        } else if (kind === BODY && dto) {
          usedDtos.add(dto);
          const required = !doc?.optionalBody;
          requestBody = { required, content: { 'application/json': { schema: schemaRef(dto) } } };
        }
      }

      if (doc?.upload) {
        const { field, description } = doc.upload;
        const schema = {
          type: 'object',
          required: [field],
          properties: { [field]: { type: 'string', format: 'binary', description } },
        };
        requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
      }
      const httpCode = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
      const idempotent = Reflect.getMetadata(IDEMPOTENT, handler) === true;
      const auth = doc?.auth ?? 'basic';
      const successes = doc?.responses ?? {
        [httpCode ?? (method === RequestMethod.POST ? 201 : 200)]: { description: 'OK' },
      };
      const responses: Record<string, Schema> = {};
      for (const [status, r] of Object.entries(successes)) {
        const content = responseContent(r);
        const headers = idempotent ? { headers: REPLAYED_HEADER } : {};
        responses[status] = { description: r.description, ...(content ? { content } : {}), ...headers };
      }
      if (doc?.signedRetry) {
        responses['202'] = {
          description: 'Signed-retry challenge: stamp `payloadToSign` and retry.',
          content: { 'application/json': { schema: schemaRef('SignedRetryChallenge') } },
        };
        parameters.push(
          {
            name: 'Service-Wallet-Signature',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: 'Stamp over payloadToSign (step 2).',
          },
          {
            name: 'Request-Id',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: 'The challenge requestId (step 2).',
          },
        );
      }
      for (const h of doc?.headers ?? []) {
        const { name: header, description, required = false } = h;
        parameters.push({ name: header, in: 'header', required, schema: { type: 'string' }, description });
      }
      if (idempotent) parameters.push(IDEMPOTENCY_KEY_PARAMETER);
      const errorStatuses = new Set<number>([
        ...(requestBody || parameters.length ? [400] : []),
        ...(auth !== 'none' ? [401] : []),
        // A platform token without the permission the operation needs (VIEW, TRANSACT or MANAGE).
        // 429: the token id or address is blocked after too many failed authentications (AuthFailureLimiter).
        ...(auth === 'basic' ? [403, 429] : []),
        // 409 IDEMPOTENCY_KEY_IN_PROGRESS while the first request with the key still runs; 422 IDEMPOTENCY_KEY_REUSED.
        ...(idempotent ? [409, 422] : []),
        ...(doc?.errors ?? []),
        500,
      ]);
      for (const status of [...errorStatuses].sort()) {
        responses[String(status)] = {
          description: ERROR_TEXT[status] ?? 'Error',
          content: { 'application/json': { schema: schemaRef('Error') } },
        };
      }

      const path = joinPath(base, routePath);
      const verb = RequestMethod[method].toLowerCase();
      paths[path] ??= {};
      paths[path][verb] = {
        operationId: `${controller.name.replace(/Controller$/, '')}_${name}`,
        summary: doc?.summary ?? name,
        ...(doc?.description ? { description: doc.description } : {}),
        tags: [doc?.tag ?? controller.name.replace(/Controller$/, '')],
        security: auth === 'none' ? [] : auth === 'bearer' ? [{ agentBearer: [] }] : [{ platformBasic: [] }],
        ...(parameters.length ? { parameters } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses,
      };
    }
  }

  const components: Record<string, Schema> = { ...resourceSchemas };
  // Body DTOs and everything they reference (nested DTOs).
  for (const [name, schema] of Object.entries(dtoSchemas)) {
    if (usedDtos.has(name) || JSON.stringify(dtoSchemas).includes(`"#/components/schemas/${name}"`))
      components[name] = schema;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payments Platform API',
      version: basePath,
      description:
        'Embedded-wallet authentication, signed-retry authorization, cards, money movement, ' +
        'webhooks and a sandbox. All amounts are integers in the smallest currency unit.',
    },
    servers: [{ url: `/${basePath}` }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks: webhookDocs(components),
    components: {
      schemas: components,
      securitySchemes: {
        platformBasic: { type: 'http', scheme: 'basic', description: '`<api token id>:<client secret>`' },
        agentBearer: { type: 'http', scheme: 'bearer', description: 'Agent access token from device-code redemption.' },
      },
    },
  };
}
