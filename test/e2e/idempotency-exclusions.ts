/**
 * POSTs deliberately without Idempotency-Key, and why. Every other POST of the document must be
 * in the table, so a new POST cannot be added without deciding.
 */
export const EXCLUDED: Record<string, string> = {
  '/auth/credentials/{id}/challenge': 'each call issues a fresh OTP or WebAuthn challenge',
  '/auth/credentials/{id}/verify': 'spends a one-time OTP, WebAuthn challenge or OIDC nonce',
  '/auth/sessions/{id}/refresh': 'signed retry whose result is a new session key sealed to a new client key',
  '/internal-accounts/{id}/export': 'signed retry returning wallet key material sealed to the client key',
  '/sandbox/clock/advance': 'advancing the sandbox clock is relative by design',
  '/webhooks/deliveries/{deliveryId}/redeliver': 'a redelivery is a new delivery attempt by design',
  '/sandbox/webhooks/test': 'sends a test webhook and reports the receiver; nothing is created or moved',
  '/crypto/estimate-withdrawal-fee': 'an estimate computed from the request; nothing is created or moved',
  '/cards/{id}/spending-controls/backtest': 'a replay of the card’s history; nothing is created or moved',
  '/agents/device-codes/{code}/redeem': 'unauthenticated, and a device code is redeemed once by design (400 after)',
  '/kyc/{token}': 'unauthenticated submission of a hosted KYC page; the link is single-use by design (409 after)',
  '/agents/{agentId}/policy/backtest': 'a read: replays the agent’s history with a draft policy; nothing is written',
  '/kyc/{token}/documents': 'unauthenticated upload on a hosted KYC page; each file the customer adds is a document',
  '/card-processor/messages': 'signed by the card processor; idempotent by the network transaction id instead',
  '/kyc-provider/callback': 'signed by the KYC provider; a review is decided once (409 after)',
};

/**
 * Operations that honour the key through the same decorator but are exercised elsewhere: the agent
 * side needs an agent and its bearer token (test/e2e/agents-quotes.e2e.spec.ts replays keys per agent).
 */
export const DECLARED_ELSEWHERE: Record<string, string> = {
  '/agents': 'agent creation',
  '/agents/{agentId}/device-codes': 'a new device code',
  '/agents/{agentId}/actions/{actionId}/approve': 'approving an agent action',
  '/agents/{agentId}/actions/{actionId}/reject': 'rejecting an agent action',
  '/agents/me/quotes': 'agent quote, key scoped per agent',
  '/config/webhook-secret/rotate': 'webhook secret rotation (webhook-secret.e2e.spec.ts replays a key)',
  '/config/card-processor/secret': 'card processor secret (card-processor.e2e.spec.ts replays a key)',
  '/agents/me/quotes/{quoteId}/execute': 'agent execute, key scoped per agent',
  '/agents/me/transfer-in': 'agent transfer-in, key scoped per agent',
  '/agents/me/transfer-out': 'agent transfer-out, key scoped per agent',
  '/agents/me/external-accounts': 'agent external account, key scoped per agent',
  '/verifications/reviews/{reviewId}/approve': 'approving a KYC review (kyc-reviews.e2e.spec.ts replays a key)',
  '/verifications/reviews/{reviewId}/reject': 'rejecting a KYC review (kyc-reviews.e2e.spec.ts replays a key)',
  '/customers/{customerId}/kyc-link': 'a KYC link (test/e2e/kyc-link.browser.e2e.spec.ts replays the key)',
  '/bank-rails/{currency}/exceptions/{creditId}/assign':
    'assigning a credit in suspense (bank-rail-credits.e2e.spec.ts)',
  '/bank-rails/{currency}/exceptions/{creditId}/return': 'sending a credit back (bank-rail-credits.e2e.spec.ts)',
};
