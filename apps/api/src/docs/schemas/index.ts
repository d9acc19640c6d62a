/**
 * Response schemas contributed by each API area (one file per area, each exporting a
 * `Record<name, JSON Schema>`), merged into the OpenAPI document's components.
 * Schemas may reference each other and the shared ones (Error, Currency, Address, Customer,
 * InternalAccount, SignedRetryChallenge) with `{ $ref: '#/components/schemas/<Name>' }`.
 */
export const areaSchemas: Record<string, Record<string, unknown>>[] = [];
