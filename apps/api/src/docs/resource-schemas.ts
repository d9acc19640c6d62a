/**
 * JSON Schemas of the API's resources (responses). Request bodies and query parameters are
 * generated from the DTO classes; these describe what the service returns.
 */
import {
  BUSINESS_TYPES,
  ENTITY_TYPES,
  MONTHLY_TRANSACTION_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES,
  PURPOSES_OF_ACCOUNT,
} from '#domain/customers/business-info.js';
import { areaSchemas } from './schemas/index.js';
import { dateTime, obj, ref, type Schema, str, idOf } from './schemas/kit.js';

const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'];

export const resourceSchemas: Record<string, Schema> = {
  Error: obj(['status', 'code', 'message'], {
    status: { type: 'integer' },
    code: str({ description: 'Machine-readable code, e.g. INVALID_INPUT, UNAUTHORIZED, CUSTOMER_NOT_FOUND.' }),
    message: str(),
    reason: str({ description: 'On 401: the check that failed.' }),
    details: {
      type: 'object',
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'constraint', 'message'],
            properties: { field: str(), constraint: str(), message: str() },
          },
        },
      },
    },
  }),
  Currency: obj(['code', 'name', 'symbol', 'decimals'], {
    code: str(),
    name: str(),
    symbol: str(),
    decimals: { type: 'integer' },
  }),
  Address: {
    type: 'object',
    properties: { line1: str(), line2: str(), city: str(), state: str(), postalCode: str(), country: str() },
  },
  Customer: {
    type: 'object',
    required: [
      'id',
      'platformCustomerId',
      'customerType',
      'umaAddress',
      'currencies',
      'isDeleted',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('Customer'),
      platformCustomerId: str(),
      customerType: str({ enum: ['INDIVIDUAL', 'BUSINESS'] }),
      umaAddress: str(),
      region: str(),
      currencies: { type: 'array', items: str() },
      email: str({ format: 'email' }),
      kycStatus: str({ enum: KYC_STATUSES, description: 'Individuals.' }),
      kybStatus: str({ enum: KYC_STATUSES, description: 'Businesses.' }),
      fullName: str(),
      birthDate: str({ format: 'date' }),
      nationality: str(),
      address: ref('Address'),
      businessInfo: {
        type: 'object',
        properties: {
          legalName: str(),
          doingBusinessAs: str(),
          country: str(),
          registrationNumber: str(),
          incorporatedOn: str({ format: 'date' }),
          entityType: str({ enum: [...ENTITY_TYPES] }),
          taxId: str(),
          countriesOfOperation: { type: 'array', items: str() },
          businessType: str({ enum: [...BUSINESS_TYPES] }),
          purposeOfAccount: str({ enum: [...PURPOSES_OF_ACCOUNT] }),
          sourceOfFunds: str(),
          expectedMonthlyTransactionCount: str({ enum: [...MONTHLY_TRANSACTION_COUNTS] }),
          expectedMonthlyTransactionVolume: str({ enum: [...MONTHLY_TRANSACTION_VOLUMES] }),
          expectedRecipientJurisdictions: { type: 'array', items: str() },
        },
      },
      isDeleted: { type: 'boolean' },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  InternalAccount: obj(['id', 'type', 'status', 'balance', 'fundingPaymentInstructions', 'createdAt', 'updatedAt'], {
    id: idOf('InternalAccount'),
    customerId: str({ description: 'Absent for the platform’s own accounts.' }),
    type: str({ enum: ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] }),
    status: str({ enum: ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN'] }),
    balance: {
      type: 'object',
      required: ['amount', 'currency'],
      properties: { amount: { type: 'integer' }, currency: ref('Currency') },
    },
    fundingPaymentInstructions: {
      type: 'array',
      description: 'Where to deposit to fund the account (sandbox: POST /sandbox/internal-accounts/{accountId}/fund).',
      items: ref('PaymentInstructions'),
    },
    privateEnabled: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ApiTokenWithSecret: {
    allOf: [
      ref('ApiToken'),
      {
        type: 'object',
        properties: {
          clientSecret: str({
            description:
              'Returned once: always on creation, never again (a replay with the same Idempotency-Key leaves it out).',
          }),
        },
      },
    ],
  },
  Health: { type: 'object', properties: { status: str() } },
  Readiness: obj(['status', 'details'], {
    status: str({ enum: ['ok', 'error'] }),
    details: {
      type: 'object',
      description: 'Each check by name (eventStore, readModels, projections, jobs): `status` up or down, with details.',
      additionalProperties: {
        type: 'object',
        required: ['status'],
        properties: { status: str({ enum: ['up', 'down'] }) },
        additionalProperties: true,
      },
    },
  }),
  SignedRetryChallenge: obj(['payloadToSign', 'requestId', 'expiresAt'], {
    payloadToSign: str({ description: 'Stamp these exact bytes.' }),
    requestId: idOf('Request'),
    expiresAt: dateTime,
    type: str({ enum: ['OAUTH', 'EMAIL_OTP', 'PASSKEY'] }),
  }),
};

Object.assign(resourceSchemas, ...areaSchemas);

export function listSchema(item: string): Schema {
  return {
    type: 'object',
    required: ['data', 'hasMore', 'totalCount'],
    properties: {
      data: { type: 'array', items: ref(item) },
      hasMore: { type: 'boolean' },
      nextCursor: str({ description: 'Present only when hasMore.' }),
      totalCount: {
        type: 'integer',
        description:
          'All matches, regardless of pagination. Exact, except where more than 10,000 documents match a combination ' +
          'of filters the service keeps no count for (a date range, two filters at once): it answers 10,000 then.',
      },
    },
  };
}

export { ref as schemaRef };
