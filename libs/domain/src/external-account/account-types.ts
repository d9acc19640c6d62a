import { DomainError, type FieldError } from '../errors.js';
import type { AccountInfo } from './external-account.js';

/**
 * The external account types the service accepts, with their fields. One table drives request
 * validation, the OpenAPI schema and which field is the account's primary identifier (the one
 * whose last three characters select sandbox outcomes).
 */
export interface AccountField {
  pattern: RegExp;
  /** What the pattern means, for error messages and documentation. */
  description: string;
  required: boolean;
}

export interface AccountTypeSpec {
  currencies: readonly string[];
  primaryIdentifier: string;
  fields: Record<string, AccountField>;
  description: string;
}

const req = (pattern: RegExp, description: string): AccountField => ({ pattern, description, required: true });
const opt = (pattern: RegExp, description: string): AccountField => ({ pattern, description, required: false });

const BANK_NAME = opt(/^[\p{L}\p{N} .,'&()-]{2,100}$/u, '2-100 letters, digits, spaces or punctuation');
const BANK_NAME_REQUIRED = { ...BANK_NAME, required: true };
const SWIFT = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const SWIFT_TEXT = 'a BIC: 8 or 11 characters, e.g. DEUTDEFF';

export const ACCOUNT_TYPES: Readonly<Record<string, AccountTypeSpec>> = {
  USD_ACCOUNT: {
    description: 'US bank account (ACH, wire, RTP).',
    currencies: ['USD'],
    primaryIdentifier: 'accountNumber',
    fields: {
      accountNumber: req(/^\d{4,17}$/, '4-17 digits'),
      routingNumber: req(/^\d{9}$/, 'the 9-digit ABA routing number'),
      accountCategory: opt(/^(CHECKING|SAVINGS)$/, 'CHECKING or SAVINGS'),
      bankName: BANK_NAME,
    },
  },
  EUR_ACCOUNT: {
    description: 'SEPA bank account in euros.',
    currencies: ['EUR'],
    primaryIdentifier: 'iban',
    fields: {
      iban: req(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, 'an IBAN without spaces'),
      swiftCode: opt(SWIFT, SWIFT_TEXT),
      bankName: BANK_NAME,
    },
  },
  IBAN_ACCOUNT: {
    description: 'Any IBAN bank account, in a currency its country uses.',
    currencies: ['EUR', 'GBP', 'AED'],
    primaryIdentifier: 'iban',
    fields: {
      iban: req(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, 'an IBAN without spaces'),
      swiftCode: opt(SWIFT, SWIFT_TEXT),
      bankName: BANK_NAME,
    },
  },
  AED_ACCOUNT: {
    description: 'UAE bank account.',
    currencies: ['AED'],
    primaryIdentifier: 'iban',
    fields: {
      iban: req(/^AE\d{21}$/, 'a UAE IBAN: AE and 21 digits'),
      swiftCode: req(SWIFT, SWIFT_TEXT),
      bankName: BANK_NAME,
    },
  },
  GBP_ACCOUNT: {
    description: 'UK bank account (Faster Payments).',
    currencies: ['GBP'],
    primaryIdentifier: 'accountNumber',
    fields: {
      accountNumber: req(/^\d{8}$/, '8 digits'),
      sortCode: req(/^\d{6}$/, '6 digits without dashes'),
      bankName: BANK_NAME,
    },
  },
  MXN_ACCOUNT: {
    description: 'Mexican bank account (SPEI).',
    currencies: ['MXN'],
    primaryIdentifier: 'clabe',
    fields: { clabe: req(/^\d{18}$/, 'an 18-digit CLABE'), bankName: BANK_NAME },
  },
  CAD_ACCOUNT: {
    description: 'Canadian bank account (EFT).',
    currencies: ['CAD'],
    primaryIdentifier: 'accountNumber',
    fields: {
      accountNumber: req(/^\d{7,12}$/, '7-12 digits'),
      institutionNumber: req(/^\d{3}$/, '3 digits'),
      transitNumber: req(/^\d{5}$/, '5 digits'),
      bankName: BANK_NAME,
    },
  },
  UPI: {
    description: 'Indian UPI virtual payment address.',
    currencies: ['INR'],
    primaryIdentifier: 'vpa',
    fields: { vpa: req(/^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/, 'a UPI address such as name@bank') },
  },
  PIX: {
    description: 'Brazilian PIX key.',
    currencies: ['BRL'],
    primaryIdentifier: 'pixKey',
    fields: {
      pixKey: req(/^.{1,77}$/, 'a PIX key (CPF/CNPJ, email, phone or random key), at most 77 characters'),
      pixKeyType: opt(/^(CPF|CNPJ|EMAIL|PHONE|RANDOM)$/, 'CPF, CNPJ, EMAIL, PHONE or RANDOM'),
    },
  },
  PHP_ACCOUNT: {
    description: 'Philippine bank account (InstaPay, PESONet).',
    currencies: ['PHP'],
    primaryIdentifier: 'accountNumber',
    fields: { accountNumber: req(/^\d{10,16}$/, '10-16 digits'), bankName: BANK_NAME_REQUIRED },
  },
  NGN_ACCOUNT: {
    description: 'Nigerian bank account (NUBAN).',
    currencies: ['NGN'],
    primaryIdentifier: 'accountNumber',
    fields: { accountNumber: req(/^\d{10}$/, 'a 10-digit NUBAN'), bankName: BANK_NAME_REQUIRED },
  },
  SPARK_WALLET: {
    description: 'Spark wallet (BTC or USDC).',
    currencies: ['BTC', 'USDC'],
    primaryIdentifier: 'address',
    fields: { address: req(/^sp(rt)?1[02-9ac-hj-np-z]{20,120}$/, 'a Spark address (sp1...)') },
  },
  LIGHTNING: {
    description: 'Lightning address for BTC.',
    currencies: ['BTC'],
    primaryIdentifier: 'address',
    fields: {
      address: req(/^[a-z0-9._-]{1,64}@[a-z0-9.-]+\.[a-z]{2,}$/, 'a Lightning address such as name@domain.com'),
    },
  },
  ETHEREUM_WALLET: {
    description: 'EVM wallet for USDC (Ethereum, Base).',
    currencies: ['USDC'],
    primaryIdentifier: 'address',
    fields: { address: req(/^0x[0-9a-fA-F]{40}$/, '0x and 40 hex digits') },
  },
  SOLANA_WALLET: {
    description: 'Solana wallet for USDC.',
    currencies: ['USDC'],
    primaryIdentifier: 'address',
    fields: { address: req(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, '32-44 base58 characters') },
  },
};

export const ACCOUNT_TYPE_NAMES = Object.keys(ACCOUNT_TYPES);

/**
 * Checks `accountInfo` against its type and the account's currency: every field known, required
 * fields present, formats respected. Returns the validated copy and its primary identifier.
 */
export function validateAccountInfo(
  info: Record<string, unknown>,
  currency: string,
): { accountInfo: AccountInfo; primaryIdentifier: string } {
  const errors: FieldError[] = [];
  const fail = (field: string, constraint: string, message: string) =>
    errors.push({ field: `accountInfo.${field}`, constraint, message });
  const spec = typeof info.accountType === 'string' ? ACCOUNT_TYPES[info.accountType] : undefined;
  if (!spec) {
    fail('accountType', 'isIn', `accountType must be one of ${ACCOUNT_TYPE_NAMES.join(', ')}`);
    throw invalidAccountInfo(errors);
  }
  if (!spec.currencies.includes(currency)) {
    errors.push({
      field: 'currency',
      constraint: 'accountType',
      message: `${info.accountType} accounts hold ${spec.currencies.join(' or ')}, not ${currency}`,
    });
  }
  for (const [name, value] of Object.entries(info)) {
    if (name !== 'accountType' && !spec.fields[name])
      fail(name, 'whitelistValidation', `accountInfo.${name} is not a field of ${info.accountType}`);
    else if (name !== 'accountType' && typeof value !== 'string')
      fail(name, 'isString', `accountInfo.${name} must be a string`);
  }
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = info[name];
    if (value === undefined) {
      if (field.required)
        fail(name, 'isDefined', `accountInfo.${name} is required for ${info.accountType}: ${field.description}`);
    } else if (typeof value === 'string' && !field.pattern.test(value)) {
      fail(name, 'matches', `accountInfo.${name} must be ${field.description}`);
    }
  }
  if (errors.length > 0) throw invalidAccountInfo(errors);
  return {
    accountInfo: { ...info, accountType: info.accountType as string },
    primaryIdentifier: info[spec.primaryIdentifier] as string,
  };
}

function invalidAccountInfo(errors: FieldError[]): DomainError {
  return new DomainError('invalid', 'INVALID_INPUT', 'the account details are not valid', { errors });
}
