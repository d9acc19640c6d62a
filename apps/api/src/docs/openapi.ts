import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ERROR_TEXT, MULTIPART_FILE, OPTIONAL_BODY } from './api-doc.js';
import { resourceSchemas, schemaRef } from './resource-schemas.js';
import { webhookDocs, webhookTypeSchema } from './webhook-docs.js';
import { loadDtoMetadata, useValidatorSchemas } from './dto-schemas.js';
import { addRecordedExamples } from './recorded-examples.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document, walked by key
type Schema = Record<string, any>;

const REPLAYED_HEADER: Schema = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored first response to the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * Builds the OpenAPI 3.1 document with `@nestjs/swagger` from the running application: routes, parameters and
 * request bodies from Nest and the plugin's DTO metadata, operations, responses and headers from `@ApiDoc`,
 * response schemas and the `webhooks:` section from resource-schemas.ts and webhook-docs.ts (given to swagger as
 * the document's starting components and webhooks). `completeOperations` then adds what follows from each
 * operation itself (see there), and the DTO schemas are the ones class-validator enforces (docs/contributing.md,
 * "How the OpenAPI document is made").
 */
export async function buildOpenApiDocument(app: INestApplication, basePath: string): Promise<Schema> {
  await loadDtoMetadata();
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Payments Platform API')
    .setVersion(basePath)
    .setDescription(
      'Embedded-wallet authentication, signed-retry authorization, cards, money movement, ' +
        'webhooks and a sandbox. All amounts are integers in the smallest currency unit. Every answer, errors ' +
        'included, carries `X-Request-Id`: the one the request sent, or a new UUID.',
    )
    .addServer(`/${basePath}`)
    .addBasicAuth({ type: 'http', scheme: 'basic', description: '`<api token id>:<client secret>`' }, 'platformBasic')
    .addBearerAuth(
      // opaque (`gat_…`), not the JWT swagger assumes by default
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: undefined,
        description: 'Agent access token from device-code redemption.',
      },
      'agentBearer',
    )
    .build();
  const webhooks = webhookDocs(resourceSchemas);
  const start: Omit<OpenAPIObject, 'paths'> = {
    ...config,
    components: { ...config.components, schemas: { ...resourceSchemas, WebhookType: webhookTypeSchema(webhooks) } },
    webhooks,
  };
  const document = SwaggerModule.createDocument(app, start, {
    ignoreGlobalPrefix: true,
    autoTagControllers: false,
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  }) as Schema;
  useValidatorSchemas(document.components.schemas, resourceSchemas);
  completeOperations(document);
  dropUnused(document.components.schemas, document);
  addRecordedExamples(document);
  if (!document.tags?.length) delete document.tags;
  document.paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

/**
 * What follows from an operation itself rather than from one route's decorators: the error responses every
 * operation of its kind can answer (400 with input, 401 with credentials, 403 and 429 with Basic auth, 409 and 422
 * with an Idempotency-Key, 500), `Idempotent-Replayed` on the responses a key can replay, an optional or multipart
 * body (ApiDoc's extensions), the tag and the empty security of public routes, and `X-Request-Id` on every request
 * and success.
 */
function completeOperations(document: Schema): void {
  const components = document.components.schemas as Record<string, Schema>;
  for (const byMethod of Object.values(document.paths as Record<string, Record<string, Schema>>)) {
    for (const op of Object.values(byMethod)) {
      op.tags = op.tags?.length ? op.tags : [String(op.operationId).split('_')[0]];
      op.security ??= [];
      const parameters = (op.parameters ?? []) as Schema[];
      for (const p of parameters) if (p.in === 'header') p.schema ??= { type: 'string' };
      const idempotent = parameters.some((p) => p.name === 'Idempotency-Key');
      if (op[OPTIONAL_BODY] && op.requestBody) op.requestBody.required = false;
      if (op[MULTIPART_FILE]) op.requestBody = multipartBody(op.requestBody, op[MULTIPART_FILE], components);
      delete op[OPTIONAL_BODY];
      delete op[MULTIPART_FILE];
      const responses = op.responses as Record<string, Schema>;
      if (idempotent) {
        for (const [status, r] of Object.entries(responses)) {
          const challenge = r.content?.['application/json']?.schema?.$ref?.endsWith('/SignedRetryChallenge');
          if (status.startsWith('2') && !challenge) r.headers = { ...r.headers, ...REPLAYED_HEADER };
        }
      }
      const basic = op.security.some((s: Schema) => 'platformBasic' in s);
      const statuses = [
        ...(op.requestBody || parameters.length ? [400] : []),
        ...(op.security.length ? [401] : []),
        // A platform token without the permission (403); its id or address blocked after failed authentications (429).
        ...(basic ? [403, 429] : []),
        // 409 IDEMPOTENCY_KEY_IN_PROGRESS while the first request with the key still runs; 422 IDEMPOTENCY_KEY_REUSED.
        ...(idempotent ? [409, 422] : []),
        500,
      ];
      for (const status of statuses) {
        responses[status] ??= {
          description: ERROR_TEXT[status],
          content: { 'application/json': { schema: schemaRef('Error') } },
        };
      }
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
      // every request may name itself, every answer carries its id (http/request-log.ts); declared on the
      // successes only (the error answers carry it too, as info.description says: a header table on each of
      // them would add a tenth to the reference page's rendering for one repeated line)
      op.parameters = [...parameters, { $ref: '#/components/parameters/X-Request-Id' }];
      for (const [status, r] of Object.entries(op.responses as Record<string, Schema>))
        if (status.startsWith('2'))
          r.headers = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...r.headers };
    }
  }
  document.components.parameters = { 'X-Request-Id': { in: 'header', ...REQUEST_ID } };
  document.components.headers = {
    'X-Request-Id': { description: 'The request’s id: the one it sent, or a new UUID.', schema: REQUEST_ID.schema },
  };
}

const REQUEST_ID = {
  name: 'X-Request-Id',
  required: false,
  description:
    'Names the request in the service’s log and comes back on the answer; anything but 1-128 characters of ' +
    '`A-Z a-z 0-9 . _ : -` is replaced by a new UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
};

/** A multipart/form-data body: the DTO's fields as text parts and one required file part. */
function multipartBody(
  body: Schema | undefined,
  multipart: { fileField: string; description: string },
  components: Record<string, Schema>,
): Schema {
  const ref = body?.content?.['multipart/form-data']?.schema?.$ref as string | undefined;
  const dto = (ref ? components[ref.split('/').pop()!] : undefined) ?? {};
  const file = { type: 'string', format: 'binary', description: multipart.description };
  const schema = {
    type: 'object',
    required: [multipart.fileField, ...((dto.required as string[] | undefined) ?? [])],
    properties: { [multipart.fileField]: file, ...((dto.properties as Schema | undefined) ?? {}) },
  };
  return { required: true, content: { 'multipart/form-data': { schema } } };
}

/** DTO schemas nothing refers to any more (a multipart body's DTO, inlined into its form). */
function dropUnused(components: Record<string, Schema>, document: Schema): void {
  for (const name of Object.keys(components)) {
    if (resourceSchemas[name] || name === 'WebhookType') continue;
    const { [name]: _own, ...rest } = components;
    if (!JSON.stringify({ ...document, components: { schemas: rest } }).includes(`"#/components/schemas/${name}"`))
      delete components[name];
  }
}
