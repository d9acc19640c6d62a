/** OpenAPI prose of the tokens routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of tokens.controller.ts, by handler. */
export const TOKENS_TEXT = {
  create:
    'The client secret is returned once; only its hash is stored. A replay with the same Idempotency-Key returns ' +
    'the token without `clientSecret`. permissions limit what the token may do ' +
    '(VIEW: reads; TRANSACT: payments; MANAGE: all other changes; 403 FORBIDDEN otherwise); all three when ' +
    'omitted. clientId (the token id) and the secret are the HTTP Basic credentials.',
  list: 'Newest first. name matches exactly; date filters are inclusive.',
  revoke: 'The last active token cannot be revoked.',
};
