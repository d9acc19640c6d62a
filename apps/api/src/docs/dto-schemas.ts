import { SwaggerModule } from '@nestjs/swagger';
import { targetConstructorToSchema, validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import swaggerMetadata from './swagger-metadata.js';

// JSON Schema objects as class-validator-jsonschema and swagger write them
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;
type Ctor = abstract new (...args: never[]) => unknown;
type Factory = () => Record<string, Schema>;

/** Where `@nestjs/swagger` looks for a class's plugin metadata (its plugin-constants.ts). */
const METADATA_FACTORY = '_OPENAPI_METADATA_FACTORY';
const REF_PREFIX = '#/components/schemas/';
const OPTIONS = { refPointerPrefix: REF_PREFIX, classTransformerMetadataStorage: defaultMetadataStorage };

/** The exported classes of the DTO modules the plugin metadata names, by name. */
const dtoClasses = new Map<string, Ctor>();
let loaded: Promise<void> | undefined;

/**
 * Loads the swagger plugin's metadata of the DTO classes (swagger-metadata.ts, written by
 * `npm run openapi:metadata`) once, with each property's schema completed from class-validator's own metadata
 * (class-validator-jsonschema): the plugin's shim reads only literal arguments of a few decorators, so a pattern
 * kept in a constant, `@IsInt`, `@IsIn` (skipped in the plugin's readonly mode), custom validators and
 * `@JSONSchema` defaults and unions would be missing from the query parameters swagger derives.
 */
export function loadDtoMetadata(): Promise<void> {
  loaded ??= SwaggerModule.loadPluginMetadata(async () => {
    const metadata = await swaggerMetadata();
    for (const [file] of metadata['@nestjs/swagger'].models) {
      for (const [name, value] of Object.entries(await file))
        if (typeof value === 'function') dtoClasses.set(name, value as Ctor);
    }
    return metadata;
  }).then(() => {
    for (const cls of dtoClasses.values()) {
      const own = Object.prototype.hasOwnProperty.call(cls, METADATA_FACTORY);
      const factory = own ? ((cls as unknown as Record<string, Factory>)[METADATA_FACTORY] as Factory) : undefined;
      if (factory) Object.assign(cls, { [METADATA_FACTORY]: () => completed(factory(), validatorSchema(cls)) });
    }
  });
  return loaded;
}

function validatorSchema(cls: Ctor): Schema {
  return targetConstructorToSchema(cls, OPTIONS) as Schema;
}

/** Plugin metadata with each property's validation keywords added (its type and nesting stay the plugin's). */
function completed(plugin: Record<string, Schema>, validated: Schema): Record<string, Schema> {
  const properties = (validated.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(
    Object.entries(plugin).map(([name, meta]) => {
      const { $ref: _ref, items, allOf: _allOf, type, ...keywords } = properties[name] ?? {};
      const scalar = typeof type === 'string' && type !== 'object' && type !== 'array' ? { type } : {};
      // an array of plain values keeps its items' checks (a pattern on each)
      const each = items && !JSON.stringify(items).includes('$ref') ? { type: 'array', items } : {};
      return [name, { ...meta, ...keywords, ...scalar, ...each }];
    }),
  );
}

/**
 * Replaces the DTO schemas swagger wrote into the components with the schemas class-validator enforces (the
 * ValidationPipe runs the same decorators), with the nested DTOs they refer to: these are the request bodies'
 * contract, exactly, and what the fuzz test breaks on purpose.
 */
export function useValidatorSchemas(components: Record<string, Schema>, keep: Record<string, unknown>): void {
  const validated = validationMetadatasToSchemas(OPTIONS) as Record<string, Schema>;
  const schemaOf = (name: string): Schema | undefined =>
    validated[name] ?? (dtoClasses.has(name) ? validatorSchema(dtoClasses.get(name)!) : undefined);
  const pending = Object.keys(components).filter((name) => !keep[name]);
  const done = new Set<string>();
  for (let name = pending.pop(); name; name = pending.pop()) {
    if (done.has(name)) continue;
    done.add(name);
    const schema = schemaOf(name);
    if (!schema) continue;
    components[name] = withoutNullable(schema);
    for (const [, ref] of JSON.stringify(schema).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) pending.push(ref);
  }
}

/**
 * OpenAPI 3.1 has no `nullable` (class-validator-jsonschema writes it beside a nested DTO's `$ref` for a field that
 * may be null): such a property becomes one of its schema or null.
 */
function withoutNullable(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    if (property.nullable !== true) continue;
    const { nullable: _nullable, $ref, ...rest } = property;
    const orNull = typeof rest.type === 'string' ? { ...rest, type: [rest.type, 'null'] } : rest;
    properties![name] = $ref ? { ...rest, oneOf: [{ $ref }, { type: 'null' }] } : orNull;
  }
  return schema;
}
