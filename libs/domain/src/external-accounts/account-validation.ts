import { DomainError, type FieldError } from '../errors.js';
import {
  ACCOUNT_TYPE_NAMES,
  ACCOUNT_TYPES,
  ADDRESS_FIELDS,
  BUSINESS_BENEFICIARY_FIELDS,
  INDIVIDUAL_BENEFICIARY_FIELDS,
  type AccountField,
  type AccountTypeSpec,
} from './account-types.js';
import type { AccountInfo } from './external-account.js';

/** Free-text beneficiary and address fields: the public API sets no bound; this one only stops absurd input. */
export const BENEFICIARY_TEXT_MAX = 255;

type Fail = (field: string, constraint: string, message: string) => void;

/**
 * Taken in any type's accountInfo: the public API's own examples send the platform's reference there (it
 * belongs beside accountInfo; given only there, it is the account's platformAccountId).
 */
export const ANY_TYPE_FIELDS: Readonly<Record<string, AccountField>> = {
  platformAccountId: { required: false, description: '1-200 characters', minLength: 1, maxLength: 200 },
};

/** The reason a value does not fit its field, or undefined when it does. */
export function fieldProblem(value: unknown, f: AccountField): { constraint: string; message: string } | undefined {
  if (typeof value !== 'string') return { constraint: 'isString', message: 'must be a string' };
  if (f.enum && !f.enum.includes(value)) return { constraint: 'isIn', message: `must be ${f.description}` };
  if (value.length < f.minLength || value.length > f.maxLength || (f.pattern && !f.pattern.test(value)))
    return { constraint: 'matches', message: `must be ${f.description}` };
  return undefined;
}

function checkText(value: unknown, path: string, fail: Fail) {
  if (typeof value !== 'string') fail(path, 'isString', `${path} must be a string`);
  else if (value.trim().length === 0 || value.length > BENEFICIARY_TEXT_MAX)
    fail(path, 'length', `${path} must have 1-${BENEFICIARY_TEXT_MAX} characters`);
}

function checkObject(
  value: unknown,
  path: string,
  required: readonly string[],
  optional: readonly string[],
  fail: Fail,
  nested: Record<string, (v: unknown, p: string) => void> = {},
): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, 'isObject', `${path} must be an object`);
    return false;
  }
  const obj = value as Record<string, unknown>;
  const known = new Set([...required, ...optional]);
  for (const name of Object.keys(obj))
    if (!known.has(name)) fail(`${path}.${name}`, 'whitelistValidation', `${path}.${name} is not a known field`);
  for (const name of required)
    if (obj[name] === undefined) fail(`${path}.${name}`, 'isDefined', `${path}.${name} is required`);
  for (const name of [...required, ...optional]) {
    if (obj[name] === undefined) continue;
    if (nested[name]) nested[name](obj[name], `${path}.${name}`);
    else checkText(obj[name], `${path}.${name}`, fail);
  }
  return true;
}

/** `accountInfo.beneficiary`: an individual (fullName, plus what the type adds) or a business (legalName). */
export function checkBeneficiary(value: unknown, spec: AccountTypeSpec, fail: Fail): void {
  const path = 'accountInfo.beneficiary';
  const rules = spec.beneficiary ?? { required: [], extra: [] };
  const kind = (value as { beneficiaryType?: unknown } | null)?.beneficiaryType;
  const address = (v: unknown, p: string) => checkObject(v, p, ADDRESS_FIELDS.required, ADDRESS_FIELDS.optional, fail);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, 'isObject', `${path} must be an object with beneficiaryType INDIVIDUAL or BUSINESS`);
    return;
  }
  const { beneficiaryType: _type, ...fields } = value as Record<string, unknown>;
  if (kind === 'BUSINESS') {
    const optional = [...BUSINESS_BENEFICIARY_FIELDS.filter((f) => f !== 'legalName'), 'address'];
    checkObject(fields, path, ['legalName'], optional, fail, { address });
  } else if (kind === 'INDIVIDUAL') {
    const required = ['fullName', ...rules.required];
    const optional = [...INDIVIDUAL_BENEFICIARY_FIELDS, ...rules.extra, 'address'].filter((f) => !required.includes(f));
    checkObject(fields, path, required, optional, fail, { address });
  } else {
    fail(`${path}.beneficiaryType`, 'isIn', `${path}.beneficiaryType must be INDIVIDUAL or BUSINESS`);
  }
}

function checkPaymentRails(value: unknown, spec: AccountTypeSpec, fail: Fail) {
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((r) => typeof r === 'string' && spec.paymentRails.includes(r)) &&
    new Set(value).size === value.length;
  if (!ok)
    fail(
      'accountInfo.paymentRails',
      'isIn',
      `accountInfo.paymentRails must be distinct values among ${spec.paymentRails.join(', ') || '(none)'}`,
    );
}

/**
 * Checks `accountInfo` against its type and the account's currency: every field known, required fields
 * present, formats respected, a valid beneficiary for bank accounts. Returns the validated copy and its
 * primary identifier (empty when the type's identifying fields are all optional and none was given).
 */
export function validateAccountInfo(
  info: Record<string, unknown>,
  currency: string,
): { accountInfo: AccountInfo; primaryIdentifier: string } {
  const errors: FieldError[] = [];
  const fail: Fail = (field, constraint, message) => errors.push({ field, constraint, message });
  const spec = typeof info.accountType === 'string' ? ACCOUNT_TYPES[info.accountType] : undefined;
  if (!spec) {
    fail('accountInfo.accountType', 'isIn', `accountInfo.accountType must be one of ${ACCOUNT_TYPE_NAMES.join(', ')}`);
    throw invalidAccountInfo(errors);
  }
  if (spec.currencies !== 'any' && !spec.currencies.includes(currency)) {
    const held = spec.currencies.join(' or ');
    fail('currency', 'accountType', `${info.accountType} accounts hold ${held}, not ${currency}`);
  }
  const special = new Set(['accountType', ...(spec.beneficiary ? ['beneficiary', 'paymentRails'] : [])]);
  for (const [name, value] of Object.entries(info)) {
    if (special.has(name)) continue;
    const f = spec.fields[name] ?? ANY_TYPE_FIELDS[name];
    if (!f)
      fail(`accountInfo.${name}`, 'whitelistValidation', `accountInfo.${name} is not a field of ${info.accountType}`);
    else {
      const problem = fieldProblem(value, f);
      if (problem) fail(`accountInfo.${name}`, problem.constraint, `accountInfo.${name} ${problem.message}`);
    }
  }
  for (const [name, f] of Object.entries(spec.fields))
    if (f.required && info[name] === undefined)
      fail(
        `accountInfo.${name}`,
        'isDefined',
        `accountInfo.${name} is required for ${info.accountType}: ${f.description}`,
      );
  if (spec.beneficiary) {
    if (info.beneficiary === undefined)
      fail('accountInfo.beneficiary', 'isDefined', `accountInfo.beneficiary is required for ${info.accountType}`);
    else checkBeneficiary(info.beneficiary, spec, fail);
    if (info.paymentRails !== undefined) checkPaymentRails(info.paymentRails, spec, fail);
  }
  if (errors.length > 0) throw invalidAccountInfo(errors);
  const identifier = spec.identifiers.map((name) => info[name]).find((v) => typeof v === 'string');
  return {
    accountInfo: { ...info, accountType: info.accountType as string },
    primaryIdentifier: (identifier ?? '') as string,
  };
}

function invalidAccountInfo(errors: FieldError[]): DomainError {
  return new DomainError('invalid', 'INVALID_INPUT', 'the account details are not valid', { errors });
}
