import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage, IsInt, IsString, MetadataStorage, validate } from 'class-validator';
import { IntRange } from './fields.js';
import { bodyErrors, memoizeTargetValidationMetadatas } from './validation.js';

const storage = getMetadataStorage();
const lookup = (target: new () => object, groups?: string[]) =>
  storage.getTargetValidationMetadatas(target, '', false, false, groups);
const properties = (target: new () => object, groups?: string[]) =>
  lookup(target, groups)
    .map((m) => m.propertyName)
    .sort();

describe('class rules kept between validations', () => {
  memoizeTargetValidationMetadatas();

  it('answers a class the same rules again without looking them up again', () => {
    class Payment {
      @IsString() currency!: string;
    }
    const first = lookup(Payment);
    expect(first.map((m) => m.propertyName)).toEqual(['currency']);
    expect(lookup(Payment)).toBe(first);
  });

  it('sees a rule registered after the class was looked up, and the rules of its ancestors', () => {
    class Base {
      @IsString() id!: string;
    }
    expect(properties(Base)).toEqual(['id']);
    IsInt()(Base.prototype, 'amount');
    expect(properties(Base)).toEqual(['amount', 'id']);
    class Derived extends Base {
      @IsString() note!: string;
    }
    expect(properties(Derived)).toEqual(['amount', 'id', 'note']);
  });

  it('keeps one answer per set of groups', () => {
    class Grouped {
      @IsString({ groups: ['a'] }) onlyA!: string;
      @IsString({ groups: ['b'] }) onlyB!: string;
    }
    expect(properties(Grouped, ['a'])).toEqual(['onlyA']);
    expect(properties(Grouped, ['b'])).toEqual(['onlyB']);
    expect(properties(Grouped, ['a', 'b'])).toEqual(['onlyA', 'onlyB']);
  });

  it('validates as before: a class defined after memoizing is checked, and a valid object passes', async () => {
    class Transfer {
      @IsString() accountId!: string;
      @IsInt() amount!: number;
    }
    const errors = await validate(Object.assign(new Transfer(), { accountId: 'A', amount: 'ten' }));
    expect(errors.map((e) => [e.property, Object.keys(e.constraints ?? {})])).toEqual([['amount', ['isInt']]]);
    expect(await validate(Object.assign(new Transfer(), { accountId: 'A', amount: 10 }))).toEqual([]);
  });

  it('installs itself once per storage, and leaves objects without a constructor to the plain lookup', () => {
    const own = new MetadataStorage();
    memoizeTargetValidationMetadatas(own);
    const installed = own.getTargetValidationMetadatas;
    memoizeTargetValidationMetadatas(own);
    expect(own.getTargetValidationMetadatas).toBe(installed);
    const bare = Object.create(null) as { constructor?: unknown };
    expect(own.getTargetValidationMetadatas(bare.constructor as never, 'schema', false, false)).toEqual([]);
  });
});

describe('field errors', () => {
  class Amounts {
    @IntRange(1, Number.MAX_SAFE_INTEGER, { message: 'amount must be an integer in the smallest unit' })
    amount!: number;
  }

  it('answers a value of the wrong type with its type error alone, not also the range it cannot meet', async () => {
    expect(await bodyErrors(Amounts, { amount: '100.00' })).toEqual([
      { field: 'amount', constraint: 'isInt', message: 'amount must be an integer in the smallest unit' },
    ]);
    expect((await bodyErrors(Amounts, { amount: 0 })).map((e) => e.constraint)).toEqual(['min']);
    expect(await bodyErrors(Amounts, { amount: 100 })).toEqual([]);
  });
});
