import { JSONSchema } from 'class-validator-jsonschema';
import { ValidationPipe } from '@nestjs/common';
import {
  getMetadataStorage,
  IS_OPTIONAL,
  ValidateIf,
  ValidationError,
  ValidationTypes,
  type ValidatorOptions,
} from 'class-validator';
import type { FieldError } from '#domain/errors.js';
import { ApiError, invalidInput } from './errors.js';

/** The constraints that say what type a field has: a value of another type fails them and is told only that. */
const TYPE_CONSTRAINTS: ReadonlySet<string> = new Set([
  'isInt',
  'isNumber',
  'isString',
  'isBoolean',
  'isArray',
  'isObject',
]);

/**
 * A field's failed constraints as answered: where its type is wrong (`"amount": "100.00"` for an integer), that one
 * error, not also the range or length rules a value of the wrong type cannot meet.
 */
function shownConstraints(constraints: Record<string, string> = {}): [string, string][] {
  const all = Object.entries(constraints);
  const typed = all.filter(([constraint]) => TYPE_CONSTRAINTS.has(constraint));
  return typed.length > 0 ? typed : all;
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const [constraint, message] of shownConstraints(e.constraints)) {
      out.push({
        field,
        constraint,
        message: constraint === 'whitelistValidation' ? `${field} is not a known field` : message,
      });
    }
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

interface PropertyRule {
  property: string;
  /** Only `@IsOptional()` conditions: absence is allowed, null is not. */
  nullRefused: boolean;
  /** Validated as a nested object or array of them. */
  nested: boolean;
}

/** Each DTO class's rules, read once from class-validator's metadata (decorators run when a class is defined). */
const rulesByClass = new WeakMap<object, PropertyRule[]>();

function rulesOf(target: object): PropertyRule[] {
  let rules = rulesByClass.get(target);
  if (!rules) {
    const storage = getMetadataStorage();
    const metadatas = storage.getTargetValidationMetadatas(target as new () => object, '', true, false);
    rules = Object.entries(storage.groupByPropertyName(metadatas)).map(([property, ofProperty]) => {
      const conditions = ofProperty.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
      return {
        property,
        nullRefused: conditions.length > 0 && conditions.every((m) => m.name === IS_OPTIONAL),
        nested: ofProperty.some((m) => m.type === ValidationTypes.NESTED_VALIDATION),
      };
    });
    rulesByClass.set(target, rules);
  }
  return rules;
}

/**
 * `@IsOptional()` lets null through as well as absence, and handlers test `=== undefined`, so a null
 * reached them as a value (BigInt(null), null funding sources: 500s). An optional field is either absent
 * or valid; a field that means something by null says so with its own `@ValidateIf`.
 */
export function nullWhereOnlyAbsenceIsAllowed(object: unknown, prefix = ''): ValidationError[] {
  if (typeof object !== 'object' || object === null) return [];
  if (Array.isArray(object)) return object.flatMap((item, i) => nullWhereOnlyAbsenceIsAllowed(item, `${prefix}${i}.`));
  const errors: ValidationError[] = [];
  for (const { property, nullRefused, nested } of rulesOf(object.constructor)) {
    const value = (object as Record<string, unknown>)[property];
    if (value === null && nullRefused) {
      const field = `${prefix}${property}`;
      const constraints = { isNotNull: `${field} must not be null; leave it out instead` };
      errors.push(Object.assign(new ValidationError(), { property: field, children: [], constraints }));
    } else if (nested) {
      errors.push(...nullWhereOnlyAbsenceIsAllowed(value, `${prefix}${property}.`));
    }
  }
  return errors;
}

/**
 * An optional field for which null is a value of its own (a limit removed, "inherit"): validated only
 * when neither null nor absent, and declared nullable in the OpenAPI document.
 */
export const Nullable = (type: 'integer' | 'array' | 'object'): PropertyDecorator => {
  const validate = ValidateIf((_: unknown, value: unknown) => value !== null && value !== undefined);
  const schema = JSONSchema(type === 'object' ? { nullable: true } : ({ type: [type, 'null'] } as never));
  return (target, key) => {
    validate(target, key as string);
    schema(target, key as string);
  };
};

/**
 * A field required when `condition` holds and validated whenever it is present: a bare `@ValidateIf`
 * would let any value through (and on to the handler) when the condition is false.
 */
export const RequiredIf = <T>(condition: (o: T) => boolean) =>
  ValidateIf((o: T, value: unknown) => condition(o) || value !== undefined);

class StrictValidationPipe extends ValidationPipe {
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    return [...(await super.validate(object, options)), ...nullWhereOnlyAbsenceIsAllowed(object)];
  }
}

let bodyPipe: ValidationPipe | undefined;

/**
 * The field errors the API would answer for `body` sent to a route taking `dto` (none when valid):
 * the request validation itself, for bodies that arrive another way (the rows of a bulk import).
 */
export async function bodyErrors(dto: new () => object, body: Record<string, unknown>): Promise<FieldError[]> {
  try {
    await (bodyPipe ??= validationPipe()).transform(body, { type: 'body', metatype: dto });
    return [];
  } catch (error) {
    if (error instanceof ApiError && Array.isArray(error.body.details?.errors))
      return error.body.details.errors as FieldError[];
    throw error;
  }
}

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetLookup = MetadataStorage['getTargetValidationMetadatas'];
type ValidationMetadata = Parameters<MetadataStorage['addValidationMetadata']>[0];
const memoized = new WeakSet<MetadataStorage>();

/**
 * class-validator finds a class's rules on every validation by testing every registered class for being one of its
 * ancestors (typestack/class-validator#2686): with this API's few hundred DTOs, a few percent of a small request's
 * CPU and allocations. A class's rules change only when rules are registered (decorators run when a class is
 * defined), so each answer is kept per class and arguments until the next registration. The arrays are shared:
 * class-validator only reads them.
 */
export function memoizeTargetValidationMetadatas(storage: MetadataStorage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  const lookup: TargetLookup = storage.getTargetValidationMetadatas.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let answers = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata: ValidationMetadata) => {
    answers = new WeakMap();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // An object without a prototype has no constructor to key by.
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${(groups ?? []).join('\u0000')}`;
    let byArguments = answers.get(target);
    if (!byArguments) answers.set(target, (byArguments = new Map()));
    let found = byArguments.get(key);
    if (!found) byArguments.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
}

/**
 * Every body and query goes through class-validator: unknown fields are refused, types are
 * checked (no implicit conversion of body values), null is not absence, and all failures come back as
 * field errors.
 */
export function validationPipe(): ValidationPipe {
  memoizeTargetValidationMetadatas();
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => invalidInput(flatten(errors)),
  });
}
