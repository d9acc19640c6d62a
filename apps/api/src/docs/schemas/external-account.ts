import * as accounts from '#domain/external-accounts/account-types.js';
import { ANY_TYPE_FIELDS, BENEFICIARY_TEXT_MAX } from '#domain/external-accounts/account-validation.js';
import { CURRENCY_CODE_PATTERN } from '#domain/primitives.js';
import { dateTime, ref, type Schema, str, idOf } from './kit.js';

const fieldSchema = (f: accounts.AccountField): Schema =>
  str({
    minLength: f.minLength,
    maxLength: f.maxLength,
    ...(f.pattern ? { pattern: f.pattern.source } : {}),
    ...(f.enum ? { enum: [...f.enum] } : {}),
    description: f.description,
  });
const text = str({ minLength: 1, maxLength: BENEFICIARY_TEXT_MAX });
const texts = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, text]));
const individual = (rules: { required: readonly string[]; extra: readonly string[] }): Schema => ({
  title: 'Individual beneficiary',
  type: 'object',
  additionalProperties: false,
  required: ['beneficiaryType', 'fullName', ...rules.required],
  properties: {
    beneficiaryType: str({ enum: ['INDIVIDUAL'] }),
    ...texts([...accounts.INDIVIDUAL_BENEFICIARY_FIELDS, ...rules.extra]),
    address: ref('BeneficiaryAddress'),
  },
});
const plain = (rules: { required: readonly string[]; extra: readonly string[] }) =>
  rules.required.length === 0 && rules.extra.length === 0;
/** Shared parts of the beneficiary schemas (most account types take the plain one). */
const beneficiarySchemas: Record<string, Schema> = {
  BeneficiaryAddress: {
    type: 'object',
    additionalProperties: false,
    required: accounts.ADDRESS_FIELDS.required,
    properties: texts([...accounts.ADDRESS_FIELDS.required, ...accounts.ADDRESS_FIELDS.optional]),
  },
  BusinessBeneficiary: {
    title: 'Business beneficiary',
    type: 'object',
    additionalProperties: false,
    required: ['beneficiaryType', 'legalName'],
    properties: {
      beneficiaryType: str({ enum: ['BUSINESS'] }),
      ...texts(accounts.BUSINESS_BENEFICIARY_FIELDS),
      address: ref('BeneficiaryAddress'),
    },
  },
  IndividualBeneficiary: individual({ required: [], extra: [] }),
  Beneficiary: {
    description: 'Who holds the account.',
    oneOf: [ref('IndividualBeneficiary'), ref('BusinessBeneficiary')],
  },
};
const beneficiary = (spec: accounts.AccountTypeSpec): Schema =>
  plain(spec.beneficiary!)
    ? ref('Beneficiary')
    : { description: 'Who holds the account.', oneOf: [individual(spec.beneficiary!), ref('BusinessBeneficiary')] };

/**
 * One variant per account type, generated from the same table that validates requests: `create` is the
 * request shape; the response adds `paymentRails` (always present for bank accounts).
 */
const accountInfoVariants = (kind: 'create' | 'response'): Schema[] =>
  Object.entries(accounts.ACCOUNT_TYPES).map(([accountType, spec]) => {
    const bank = spec.beneficiary !== undefined;
    const rails: Schema = { type: 'array', minItems: 1, items: str({ enum: [...spec.paymentRails] }) };
    const required = Object.entries(spec.fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name);
    const currencies = spec.currencies === 'any' ? 'any' : spec.currencies.join(', ');
    return {
      title: accountType,
      description:
        `${spec.description} Currencies: ${currencies}.` +
        (spec.identifiers.length ? ` Primary identifier: ${spec.identifiers.join(' or ')}.` : ''),
      type: 'object',
      ...(kind === 'create' ? { additionalProperties: false } : {}),
      required: [
        'accountType',
        ...required,
        ...(bank ? ['beneficiary'] : []),
        ...(bank && kind === 'response' ? ['paymentRails'] : []),
      ],
      properties: {
        accountType: str({ enum: [accountType] }),
        ...Object.fromEntries(
          Object.entries({ ...spec.fields, ...ANY_TYPE_FIELDS }).map(([name, f]) => [name, fieldSchema(f)]),
        ),
        ...(bank ? { beneficiary: beneficiary(spec), paymentRails: rails } : {}),
      },
    };
  });

export const externalAccountSchemas: Record<string, Schema> = {
  ...beneficiarySchemas,
  ExternalAccountCreateInfo: { oneOf: accountInfoVariants('create'), discriminator: { propertyName: 'accountType' } },
  ExternalAccountInfo: { oneOf: accountInfoVariants('response'), discriminator: { propertyName: 'accountType' } },
  ExternalAccount: {
    type: 'object',
    required: [
      'id',
      'status',
      'currency',
      'accountInfo',
      'defaultUmaDepositAccount',
      'beneficiaryVerificationStatus',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('ExternalAccount'),
      status: str({ enum: ['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'] }),
      currency: str({ pattern: CURRENCY_CODE_PATTERN.source }),
      accountInfo: { $ref: '#/components/schemas/ExternalAccountInfo' },
      customerId: str({ description: 'Absent for the platform’s own accounts.' }),
      platformAccountId: str({ description: 'The platform’s own reference, when given.' }),
      defaultUmaDepositAccount: {
        type: 'boolean',
        description: 'At most one per owner and currency: setting it on a new account clears it on the previous one.',
      },
      beneficiaryVerificationStatus: str({
        enum: ['MATCHED', 'NOT_MATCHED', 'PARTIAL_MATCH', 'PENDING', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI'],
      }),
      beneficiaryVerifiedData: {
        type: 'object',
        description: 'The holder name as the receiving institution reports it (MATCHED, PARTIAL_MATCH, NOT_MATCHED).',
        required: ['fullName'],
        properties: { fullName: str() },
      },
      directDebitMandate: {
        type: 'object',
        description:
          'The holder’s authorization to pull money by direct debit, as given on creation; production platforms’ ' +
          'transfer-in needs one.',
        required: ['mandateId', 'signedOn'],
        properties: { mandateId: str({ maxLength: 35 }), signedOn: str({ format: 'date' }) },
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
