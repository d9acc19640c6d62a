import { dateTime, obj, type Schema, str } from './kit.js';

export const invitationSchemas: Record<string, Schema> = {
  Invitation: obj(['code', 'createdAt', 'url', 'inviterUma', 'status', 'expiresAt'], {
    code: str({ pattern: '^[0-9A-HJKMNP-TV-Z]{10}$' }),
    createdAt: dateTime,
    url: str({ format: 'uri', description: 'https://<platform UMA domain>/invite/<code>' }),
    inviterUma: str(),
    status: str({
      enum: ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'],
      description: 'EXPIRED: unclaimed and past expiresAt.',
    }),
    claimedAt: dateTime,
    expiresAt: dateTime,
    inviteeUma: str(),
    firstName: str(),
    amountToSend: {
      type: 'object',
      required: ['amount', 'currency'],
      description: 'Display amount; the inviter’s platform sends it after the claim.',
      properties: { amount: { type: 'integer' }, currency: { $ref: '#/components/schemas/Currency' } },
    },
  }),
};
