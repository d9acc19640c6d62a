type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const dateTime = str({ format: 'date-time' });

export const verificationSchemas: Record<string, Schema> = {
  Verification: {
    type: 'object',
    required: ['id', 'customerId', 'verificationStatus', 'errors', 'createdAt', 'updatedAt'],
    properties: {
      id: str({ pattern: '^Verification:[0-9a-f-]{36}$' }),
      customerId: str({ pattern: '^Customer:[0-9a-f-]{36}$' }),
      verificationStatus: str({
        enum: ['APPROVED', 'PENDING', 'REJECTED', 'RESOLVE_ERRORS'],
        description: 'RESOLVE_ERRORS: the customer lacks the fields in `errors`; update it and verify again.',
      }),
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['field', 'code', 'message'],
          properties: {
            field: str({ description: 'Field of the customer, or of the resource `resourceId` names; dotted.' }),
            code: str({
              enum: ['MISSING_FIELD', 'APPLICANT_REJECTED', 'APPLICANT_PENDING'],
              description:
                'MISSING_FIELD: the customer lacks `field`. APPLICANT_REJECTED / APPLICANT_PENDING: the KYC of ' +
                'the beneficial owner `resourceId` is REJECTED / PENDING, which keeps the business from approval.',
            }),
            message: str(),
            resourceId: str({ description: 'The beneficial owner with the issue (absent for the customer’s own).' }),
          },
        },
      },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
};
