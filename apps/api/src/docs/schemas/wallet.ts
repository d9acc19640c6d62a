/** Response schemas of embedded-wallet authentication (credentials, sessions, challenges, export). */
type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const dateTime = str({ format: 'date-time' });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const AUTH_TYPES = ['OAUTH', 'EMAIL_OTP', 'PASSKEY'];

const authMethodProperties: Schema = {
  accountId: str({ pattern: '^InternalAccount:[0-9a-f-]{36}$' }),
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
  AuthMethod: {
    type: 'object',
    required: ['id', 'accountId', 'type', 'nickname', 'createdAt', 'updatedAt'],
    properties: { id: str({ pattern: '^AuthMethod:[0-9a-f-]{36}$' }), ...authMethodProperties },
  },
  AuthMethodList: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: ref('AuthMethod') } },
  },
  AuthSession: {
    type: 'object',
    required: ['id', 'accountId', 'type', 'nickname', 'createdAt', 'updatedAt', 'expiresAt'],
    properties: { id: str({ pattern: '^Session:[0-9a-f-]{36}$' }), ...authMethodProperties, expiresAt: dateTime },
  },
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
  AuthSessionList: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'array', items: ref('AuthSession') } },
  },
  PasskeyAuthChallenge: {
    type: 'object',
    required: ['credentialId', 'challenge', 'requestId', 'expiresAt'],
    properties: {
      credentialId: str(),
      challenge: str({ description: 'WebAuthn challenge (base64url).' }),
      requestId: str({
        pattern: '^Request:[0-9a-f-]{36}$',
        description: 'Send it as the Request-Id header on verify.',
      }),
      expiresAt: dateTime,
    },
  },
  AuthChallengeResult: { oneOf: [ref('AuthMethod'), ref('PasskeyAuthChallenge')] },
  WalletExport: {
    type: 'object',
    required: ['id', 'encryptedWalletCredentials'],
    properties: {
      id: str({ pattern: '^Export:[0-9a-f-]{36}$' }),
      encryptedWalletCredentials: str({
        description:
          'The 32-byte wallet seed, HPKE-sealed to clientPublicKey in the encryptedSessionSigningKey bundle format.',
      }),
    },
  },
};
