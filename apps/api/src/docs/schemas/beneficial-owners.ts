import { BENEFICIAL_OWNER_ROLES, IDENTIFICATION_TYPES } from '#domain/beneficial-owners/beneficial-owner.js';
import { dateTime, obj, type Schema, str, idOf } from './kit.js';

const country = str({ pattern: '^[A-Z]{2}$' });

export const beneficialOwnerSchemas: Record<string, Schema> = {
  BeneficialOwnerPersonalInfo: obj(
    ['firstName', 'lastName', 'birthDate', 'nationality', 'address', 'idType', 'identifier'],
    {
      firstName: str(),
      middleName: str(),
      lastName: str({ description: 'Sandbox: its last three characters select the KYC outcome.' }),
      birthDate: str({ format: 'date' }),
      nationality: country,
      email: str({ format: 'email' }),
      phoneNumber: str({ pattern: '^\\+[1-9]\\d{1,14}$' }),
      address: { $ref: '#/components/schemas/Address' },
      idType: str({ enum: [...IDENTIFICATION_TYPES] }),
      identifier: str(),
      countryOfIssuance: country,
    },
  ),
  BeneficialOwner: {
    type: 'object',
    required: [
      'id',
      'customerId',
      'roles',
      'ownershipPercentage',
      'personalInfo',
      'kycStatus',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: idOf('BeneficialOwner'),
      customerId: str({ pattern: '^Customer:[0-9a-f-]{36}$', description: 'The business customer.' }),
      roles: { type: 'array', items: str({ enum: [...BENEFICIAL_OWNER_ROLES] }) },
      ownershipPercentage: { type: 'integer', minimum: 0, maximum: 100 },
      personalInfo: { $ref: '#/components/schemas/BeneficialOwnerPersonalInfo' },
      kycStatus: str({ enum: ['APPROVED', 'PENDING', 'REJECTED'] }),
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
