import { applyDecorators } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiExtension,
  ApiHeader,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { listSchema, schemaRef } from './resource-schemas.js';

/** A response as the OpenAPI document shows it: a component schema, a list of one, or none. */
export interface DocResponse {
  description: string;
  /** Component schema name; `list:` prefix for a paginated `{data, hasMore, nextCursor, totalCount}` wrapper. */
  schema?: string;
  /** A file in one of these media types instead of JSON. */
  binary?: readonly string[];
}

/** What a route tells the OpenAPI document beyond what Nest and class-validator already know. */
export interface ApiDocMeta {
  summary: string;
  description?: string;
  tag?: string;
  /** Success responses by status; error responses are added from `errors`. */
  responses: Record<number, DocResponse>;
  /** Error statuses this route can answer besides 400/401/500 (which every authenticated route can). */
  errors?: number[];
  /** `basic` (default), `bearer` (agent token) or `none`. */
  auth?: 'basic' | 'bearer' | 'none';
  /** The JSON body may be left out (an empty body means every field absent). */
  optionalBody?: boolean;
  /** Request headers the route reads, besides those `signedRetry` and `@Idempotent()` declare. */
  headers?: { name: string; description: string; required?: boolean }[];
  /** Two-step signed retry: documents the 202 challenge and the signature headers. */
  signedRetry?: boolean;
  /** A `multipart/form-data` body carrying one file in `field` (the route reads it itself). */
  upload?: { field: string; description: string };
  /**
   * The body is multipart/form-data: the `@Body()` DTO's fields as text parts plus one file part,
   * required, named `fileField`.
   */
  multipart?: { fileField: string; description: string };
}

/** Marks an operation whose JSON body may be absent; openapi.ts turns it into `requestBody.required: false`. */
export const OPTIONAL_BODY = 'x-optional-body';
/** The file part of a multipart body whose other parts are the `@Body()` DTO's fields (openapi.ts inlines them). */
export const MULTIPART_FILE = 'x-multipart-file';

const BINARY = { type: 'string', format: 'binary' } as const;

export const ERROR_TEXT: Record<number, string> = {
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

/** An error response in the shared error shape. */
const errorResponse = (status: number) =>
  ApiResponse({ status, description: ERROR_TEXT[status] ?? 'Error', schema: schemaRef('Error') });

const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  description:
    'Makes a retry safe: the first response (status and body, errors included) is kept for 24 hours ' +
    'with a hash of the request; the same key with the same request answers it again with ' +
    '`Idempotent-Replayed: true` and runs nothing, with a different request 422 IDEMPOTENCY_KEY_REUSED. ' +
    'Keys are per platform. Authentication failures, rate limits, server errors and signed-retry ' +
    'challenges (202) are not kept: the signed step is, and its replay runs nothing.',
} as const;

/**
 * Declares the `Idempotency-Key` header of a route that honours it; `@Idempotent()` (http/retries.ts)
 * applies it with the interceptor, so the document declares the header exactly where the service honours it
 * (openapi.ts adds the 422 and the `Idempotent-Replayed` response header wherever it is declared).
 */
export const IdempotencyKeyHeader = () => ApiHeader(IDEMPOTENCY_KEY_HEADER);

function successResponse(status: number, r: DocResponse) {
  if (r.binary) {
    const content = Object.fromEntries(r.binary.map((type) => [type, { schema: BINARY }]));
    return ApiResponse({ status, description: r.description, content });
  }
  if (!r.schema) return ApiResponse({ status, description: r.description });
  const schema = r.schema.startsWith('list:') ? listSchema(r.schema.slice(5)) : schemaRef(r.schema);
  return ApiResponse({ status, description: r.description, schema });
}

function requestBodyDecorators(meta: ApiDocMeta): MethodDecorator[] {
  if (meta.upload) {
    const { field, description } = meta.upload;
    const schema = { type: 'object', required: [field], properties: { [field]: { ...BINARY, description } } };
    return [ApiConsumes('multipart/form-data'), ApiBody({ required: true, schema })];
  }
  if (meta.multipart) return [ApiConsumes('multipart/form-data'), ApiExtension(MULTIPART_FILE, meta.multipart)];
  return meta.optionalBody ? [ApiExtension(OPTIONAL_BODY, true)] : [];
}

/**
 * The one documentation decorator of a route: applies `@nestjs/swagger`'s decorators (operation, tag, security,
 * responses, headers, request body) from one description.
 */
export const ApiDoc = (meta: ApiDocMeta) => {
  const auth = meta.auth ?? 'basic';
  const decorators: (MethodDecorator & ClassDecorator)[] = [];
  const method: MethodDecorator[] = [
    ApiOperation({ summary: meta.summary, ...(meta.description ? { description: meta.description } : {}) }),
    ...requestBodyDecorators(meta),
  ];
  if (meta.tag) decorators.push(ApiTags(meta.tag));
  if (auth === 'basic') decorators.push(ApiBasicAuth('platformBasic'));
  if (auth === 'bearer') decorators.push(ApiBearerAuth('agentBearer'));
  for (const [status, r] of Object.entries(meta.responses)) decorators.push(successResponse(Number(status), r));
  if (meta.signedRetry) {
    decorators.push(
      ApiResponse({
        status: 202,
        description: 'Signed-retry challenge: stamp `payloadToSign` and retry.',
        schema: schemaRef('SignedRetryChallenge'),
      }),
      ApiHeader({
        name: 'Service-Wallet-Signature',
        required: false,
        description: 'Stamp over payloadToSign (step 2).',
      }),
      ApiHeader({ name: 'Request-Id', required: false, description: 'The challenge requestId (step 2).' }),
    );
  }
  for (const { name, description, required = false } of meta.headers ?? [])
    decorators.push(ApiHeader({ name, description, required }));
  for (const status of meta.errors ?? []) decorators.push(errorResponse(status));
  return applyDecorators(...method, ...decorators);
};

/** An `ApiDoc` description without its summary and success responses (the shorthands below name those). */
export type ApiDocMore = Omit<ApiDocMeta, 'summary' | 'responses'>;

/** Success responses for `ApiDoc`'s `responses`: 200, 201 and 204 with their description and schema. */
export const ok = (description: string, schema?: string): Record<number, DocResponse> => ({
  200: schema ? { description, schema } : { description },
});
export const created = (description: string, schema: string): Record<number, DocResponse> => ({
  201: { description, schema },
});
export const noContent = (description: string): Record<number, DocResponse> => ({ 204: { description } });

/** A paginated list: 200 with a page (`{data, hasMore, nextCursor, totalCount}`) of `schema` items. */
export const ApiList = (summary: string, items: string, schema: string, more: ApiDocMore = {}) =>
  ApiDoc({ ...more, summary, responses: ok(`A page of ${items}`, `list:${schema}`) });

/** An operation on one resource named in the path: 404 when it is unknown (or another platform's) besides `errors`. */
export const ApiResource = (summary: string, responses: Record<number, DocResponse>, more: ApiDocMore = {}) =>
  ApiDoc({ ...more, summary, responses, errors: [404, ...(more.errors ?? []).filter((s) => s !== 404)] });

/** A signed retry on a resource named in the path: `ApiResource` with the 202 challenge and the signature headers. */
export const ApiSignedResource = (summary: string, responses: Record<number, DocResponse>, more: ApiDocMore = {}) =>
  ApiResource(summary, responses, { ...more, signedRetry: true });
