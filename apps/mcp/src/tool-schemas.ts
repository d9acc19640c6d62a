import 'reflect-metadata';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

export type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/$defs/';
const options = { refPointerPrefix: REF_PREFIX, classTransformerMetadataStorage: defaultMetadataStorage };

let definitions: Record<string, JsonSchema> | undefined;

/** Nested DTOs (e.g. QuoteSourceDto) by class name, generated once from class-validator's metadata. */
function defs(): Record<string, JsonSchema> {
  definitions ??= validationMetadatasToSchemas(options) as Record<string, JsonSchema>;
  return definitions;
}

/** Replaces every `$ref` with the referenced schema so each tool's input schema stands alone. */
function inline(value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => inline(v, seen));
  if (!value || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as JsonSchema;
  const out: JsonSchema = {};
  if (typeof $ref === 'string' && $ref.startsWith(REF_PREFIX)) {
    const name = $ref.slice(REF_PREFIX.length);
    const target = defs()[name];
    if (!target || seen.includes(name)) throw new Error(`cannot inline ${$ref} in a tool input schema`);
    Object.assign(out, inline(target, [...seen, name]) as JsonSchema);
  }
  for (const [k, v] of Object.entries(rest)) out[k] = inline(v, seen);
  return out;
}

/**
 * The JSON Schema of a request DTO, generated from the same class-validator decorators the HTTP API
 * validates with (as the OpenAPI document is), with nested DTOs inlined. Inherited decorators count.
 */
export function dtoSchema(dto: new (...args: never[]) => unknown): JsonSchema {
  const schema = inline(targetConstructorToSchema(dto, options)) as JsonSchema;
  return { type: 'object', properties: {}, ...schema };
}

/** Adds tool-only inputs (path ids, headers) to a DTO's schema. */
export function withInputs(schema: JsonSchema, extra: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  const props = { ...(schema.properties as Record<string, JsonSchema>), ...extra };
  const req = [...((schema.required as string[] | undefined) ?? []), ...required];
  return { ...schema, properties: props, ...(req.length ? { required: req } : {}) };
}
