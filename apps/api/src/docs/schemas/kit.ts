/** A JSON Schema object as the OpenAPI document writes it. */
export type Schema = Record<string, unknown>;

/** A string, with further keywords. */
export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });

export const dateTime = str({ format: 'date-time' });

/** A reference to the component schema `name`. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** An object: the members it always has and its properties. */
export const obj = (required: readonly string[], properties: Record<string, Schema>): Schema => ({
  type: 'object',
  required,
  properties,
});

/** The public id of a resource of `kind`: `<kind>:<uuid>`. */
export const idOf = (kind: string): Schema => str({ pattern: `^${kind}:[0-9a-f-]{36}$` });
