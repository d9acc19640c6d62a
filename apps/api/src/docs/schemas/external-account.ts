import { ACCOUNT_TYPES } from '#domain/external-account/account-types.js';

type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const dateTime = str({ format: 'date-time' });

/** One variant per account type, generated from the same table that validates requests. */
const accountInfoVariants: Schema[] = Object.entries(ACCOUNT_TYPES).map(([accountType, spec]) => ({
  title: accountType,
  description:
    `${spec.description} Currencies: ${spec.currencies.join(', ')}. Primary identifier: ` +
    `${spec.primaryIdentifier}.`,
  type: 'object',
  additionalProperties: false,
  required: [
    'accountType',
    ...Object.entries(spec.fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
  ],
  properties: {
    accountType: { const: accountType },
    ...Object.fromEntries(
      Object.entries(spec.fields).map(([name, f]) => [
        name,
        str({ pattern: f.pattern.source, description: f.description }),
      ]),
    ),
  },
}));

export const externalAccountSchemas: Record<string, Schema> = {
  AccountInfo: { oneOf: accountInfoVariants, discriminator: { propertyName: 'accountType' } },
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
      id: str({ pattern: '^ExternalAccount:[0-9a-f-]{36}$' }),
      status: str({ enum: ['ACTIVE'] }),
      currency: str(),
      accountInfo: { $ref: '#/components/schemas/AccountInfo' },
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
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
