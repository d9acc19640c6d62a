/** OpenAPI prose of the wallet routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of auth-credentials.controller.ts, by handler. */
export const AUTH_CREDENTIALS_TEXT = {
  add:
    'Direct when the account has no credential; otherwise a signed retry stamped by a session of ' +
    'the account (step 1 answers 202 with `type`). OAUTH takes its nickname from the token’s ' +
    'email claim; EMAIL_OTP uses the customer’s email.',
  list: 'Not paginated; empty when the account has none or is not visible to the caller.',
  challenge:
    'EMAIL_OTP: a new OTP is sent (sandbox: the code is always 000000 and no email is sent); ' +
    'answers the credential. PASSKEY: a WebAuthn challenge bound to `clientPublicKey`. ' +
    'Re-issues are rate limited (429 with Retry-After).',
  challengeResponse200: 'The credential (EMAIL_OTP) or a PasskeyAuthChallenge (PASSKEY)',
  verify:
    'EMAIL_OTP: `otp` and `clientPublicKey`. OAUTH: a fresh `oidcToken` whose nonce is ' +
    'sha256(clientPublicKey), and `clientPublicKey`. PASSKEY: `assertion` and the `Request-Id` ' +
    'header of the challenge. The session signing key is returned once, sealed to the client key.',
  verifyResponse200: 'The session with its encrypted signing key',
  revoke:
    'Signed retry stamped by a session of a different credential of the same account; the ' +
    'credential’s sessions end with it. The last credential of an account cannot be revoked (400).',
};

/** Descriptions of the routes of auth-sessions.controller.ts, by handler. */
export const AUTH_SESSIONS_TEXT = {
  list: 'Not paginated; never includes encryptedSessionSigningKey.',
  revoke: 'Signed retry; step 1 answers 202 with `type` = the type of the credential that issued the session.',
  refresh:
    'Signed retry whose payload binds `clientPublicKey` (same body on both steps); answers the ' +
    'session with a new signing key sealed to that key. An expired session cannot be refreshed: ' +
    'verify the credential again.',
};

/** Descriptions of the routes of wallet-accounts.controller.ts, by handler. */
export const WALLET_ACCOUNTS_TEXT = {
  update: 'Signed retry stamped by a session of the account; step 2 repeats the body.',
  export:
    'Signed retry with `{clientPublicKey}` on both steps; answers the wallet seed sealed (HPKE, ' +
    'the session-key bundle format) to that key.',
};
