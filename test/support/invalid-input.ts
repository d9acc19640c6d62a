import { expect } from '@jest/globals';

/** A request that must be refused with 400 INVALID_INPUT naming `field`; `name` labels it in a failure. */
export type InvalidCase = [name: string, call: () => Promise<{ status: number; body: any }>, field: string];

/**
 * Sends each case in turn: each answers 400 INVALID_INPUT whose errors name just `field` (`fields` 'only'), name
 * it in one or more errors and nothing else ('distinct'), or name it among others ('among').
 */
export async function expectInvalidInputs(cases: InvalidCase[], fields: 'only' | 'distinct' | 'among' = 'only') {
  for (const [name, call, field] of cases) {
    const res = await call();
    expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 400, code: 'INVALID_INPUT' });
    const named: string[] = res.body.details.errors.map((e: { field: string }) => e.field);
    const seen = fields === 'distinct' ? [...new Set(named)] : named;
    expect({ name, fields: seen }).toEqual({
      name,
      fields: fields === 'among' ? expect.arrayContaining([field]) : [field],
    });
  }
}
