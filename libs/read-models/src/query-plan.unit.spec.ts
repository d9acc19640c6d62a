import { describe, expect, it } from '@jest/globals';
import { countKeysOf, countPartsOf, planQuery, type PlanFilter } from './query-plan.js';
import type { Filter } from './read-model-store.js';

const filters = (list: Filter[]): PlanFilter[] => planQuery('c', { filters: list, limit: 1 }).filters;
const eq = (field: string, value: string): Filter => ({ field, op: 'eq', value });

describe('kept counts: which lists a count answers', () => {
  const parts = countPartsOf({
    fields: ['platformId', 'currency', 'createdAt'],
    flags: ['isDeleted'],
    covers: ['customerId'],
  });

  it('keys a count by the equality fields, the flags and whether each covered field is present', () => {
    expect(parts).toEqual([
      { field: 'platformId', kind: 'value' },
      { field: 'currency', kind: 'value' },
      { field: 'isDeleted', kind: 'flag' },
      { field: 'customerId', kind: 'presence' },
    ]);
    expect(countPartsOf({ fields: ['platformId', 'createdAt'] })).toEqual([{ field: 'platformId', kind: 'value' }]);
  });

  it('answers filters that ask for one value of every part, in any order', () => {
    const asked = filters([
      { field: 'customerId', op: 'exists', value: false },
      { field: 'isDeleted', op: 'eq', value: false },
      { field: 'currency', op: 'eq', value: 'EUR' },
      { field: 'platformId', op: 'eq', value: 'P1' },
    ]);
    expect(countKeysOf(parts, asked)).toEqual([['P1', 'EUR', 'false', 'absent']]);
  });

  it('sums over every value a flag or presence not asked for can hold', () => {
    const open = countKeysOf(parts, filters([{ field: 'currency', op: 'eq', value: 'EUR' }, eq('platformId', 'P1')]));
    const flags = ['true', 'false', 'null', 'integer', 'real', 'text', 'array', 'object', null];
    expect(open).toEqual(flags.flatMap((flag) => ['present', 'absent'].map((p) => ['P1', 'EUR', flag, p])));
    const twoFlags = countPartsOf({ fields: ['platformId', 'createdAt'], flags: ['isDeleted', 'isPaused'] });
    expect(countKeysOf(twoFlags, filters([eq('platformId', 'P1')]))).toBeUndefined(); // 81 keys: walked instead
  });

  /** Every part asked for: a platform, a currency, not deleted, owned. */
  const all: Filter[] = [
    eq('platformId', 'P1'),
    eq('currency', 'EUR'),
    { field: 'isDeleted', op: 'eq', value: false },
    { field: 'customerId', op: 'exists', value: true },
  ];
  /** `all` with its filter at `at` replaced by `by` (none: removed). */
  const replaced = (at: number, ...by: Filter[]) => [...all.slice(0, at), ...by, ...all.slice(at + 1)];

  it.each<[string, Filter[]]>([
    ['a value part left open', replaced(1)],
    ['a filter besides the parts', [...all, { field: 'createdAt', op: 'gte', value: '2026-01-01T00:00:00.000Z' }]],
    ['a value that is not a string', replaced(1, { field: 'currency', op: 'eq', value: 3 })],
    ['a flag asked for a string', replaced(2, { field: 'isDeleted', op: 'eq', value: 'false' })],
    ['a covered field asked for a value', replaced(3, eq('customerId', 'C1'))],
    ['one field asked twice and another not at all', replaced(1, eq('platformId', 'P2'))],
    ['a range instead of a value', replaced(1, { field: 'currency', op: 'gte', value: 'EUR' })],
  ])('leaves the count to the index walk for %s', (_name, list) => {
    expect(countKeysOf(parts, filters(list))).toBeUndefined();
  });
});
