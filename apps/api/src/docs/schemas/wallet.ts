import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';
/** Response schemas of embedded-wallet authentication (credentials, sessions, challenges, export). */

const AUTH_TYPES = ['OAUTH', 'EMAIL_OTP', 'PASSKEY'];

const authMethodProperties: Schema = {
  accountId: idOf('InternalAccount'),
  type: str({ enum: AUTH_TYPES }),
  nickname: str({
    description:
      'EMAIL_OTP: the email address. OAUTH: usually the token’s email claim. PASSKEY: the nickname ' +
      'given at registration.',
  }),
  createdAt: dateTime,
  updatedAt: dateTime,
  credentialId: str({ description: 'PASSKEY only: base64url WebAuthn credential id.' }),
};

export const walletSchemas: Record<string, Schema> = {
  AuthMethod: obj(['id', 'accountId', 'type', 'nickname', 'createdAt', 'updatedAt'], {
    id: idOf('AuthMethod'),
    ...authMethodProperties,
  }),
  AuthMethodList: obj(['data'], { data: { type: 'array', items: ref('AuthMethod') } }),
  AuthSession: obj(['id', 'accountId', 'type', 'nickname', 'createdAt', 'updatedAt', 'expiresAt'], {
    id: idOf('Session'),
    ...authMethodProperties,
    expiresAt: dateTime,
  }),
  AuthSessionWithKey: {
    allOf: [
      ref('AuthSession'),
      {
        type: 'object',
        required: ['encryptedSessionSigningKey'],
        properties: {
          encryptedSessionSigningKey: str({
            description:
              'Returned once. base58check of the 33-byte compressed encapsulated P-256 key followed ' +
              'by the AES-256-GCM ciphertext (HPKE-sealed to clientPublicKey).',
          }),
        },
      },
    ],
  },
  AuthSessionList: obj(['data'], { data: { type: 'array', items: ref('AuthSession') } }),
  PasskeyAuthChallenge: obj(['credentialId', 'challenge', 'requestId', 'expiresAt'], {
    credentialId: str(),
    challenge: str({ description: 'WebAuthn challenge (base64url).' }),
    requestId: str({
      pattern: '^Request:[0-9a-f-]{36}$',
      description: 'Send it as the Request-Id header on verify.',
    }),
    expiresAt: dateTime,
  }),
  AuthChallengeResult: { oneOf: [ref('AuthMethod'), ref('PasskeyAuthChallenge')] },
  WalletExport: obj(['id', 'encryptedWalletCredentials'], {
    id: idOf('Export'),
    encryptedWalletCredentials: str({
      description:
        'The 32-byte wallet seed, HPKE-sealed to clientPublicKey in the encryptedSessionSigningKey bundle format.',
    }),
  }),
};
