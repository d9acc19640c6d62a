/** OpenAPI prose of the platform-config routes (the descriptions the controllers' decorators name). */

export const SIGNATURES =
  'Each delivery is a POST of the JSON envelope `{id, type, timestamp, data}` signed twice: ' +
  '`X-Service-Signature: {"v":"1","s":"<base64 DER>"}` (ECDSA P-256, SHA-256 over the raw body, ' +
  'verify with `webhookSigningPublicKey`), and Standard Webhooks headers `webhook-id`, ' +
  '`webhook-timestamp`, `webhook-signature` (HMAC with `webhookSecret`).';

export const SECRET_SHOWN =
  '`webhookSecret` is shown only to a token with the MANAGE permission (a VIEW-only or TRANSACT token gets ' +
  'the configuration without it: the secret signs webhooks).';

export const DECISION_ENDPOINTS =
  'decisionEndpoints replaces the list of decision endpoints ([] removes them), at most one per type: ' +
  'CARD_AUTHORIZATION.REQUEST (a card authorization that passed the card’s screening) and AGENT_ACTION.REQUEST ' +
  '(an agent action that needs approval). The url follows webhookEndpoint’s rules; deadlineMs (50 to 2000, ' +
  'default 2000) bounds the wait from the request’s arrival; defaultDecision decides when the endpoint times out, ' +
  'cannot be reached, answers other than 2xx or an unusable answer (cards: APPROVE or DECLINE, default DECLINE; ' +
  'agent actions: APPROVE, REJECT or WAIT, default WAIT). The request is a POST of `{type, id, timestamp, data}` ' +
  'signed as webhooks are; the answer is 200 with `{"decision": "APPROVE"|"DECLINE"|"REJECT", "reason"?, ' +
  '"approvedAmount"?}` (approvedAmount: a card’s partial approval, an integer at most the amount requested). ' +
  'The first endpoint set generates the webhook signing material if none exists.';

/** Descriptions of the routes of platform-config.controller.ts, by handler. */
export const PLATFORM_CONFIG_TEXT = {
  config:
    'UMA domain, supported currencies (the service’s defaults until set), embedded wallet settings (when set), ' +
    `the webhook endpoint (absent while none is set) and the keys receivers verify webhooks with. ${SIGNATURES} ` +
    SECRET_SHOWN,
  rotateWebhookSecret:
    'Replaces the Standard Webhooks secret (`webhookSecret`) and returns the new one. Until ' +
    '`previousSecretValidUntil` (the platform clock plus `WEBHOOK_SECRET_ROTATION_GRACE_SECONDS`, 24 hours by ' +
    'default) every delivery’s `webhook-signature` carries two space-separated entries, `v1,<new> v1,<old>`, so ' +
    'receivers verifying with either secret accept it; after that only the new one. A replay with the same ' +
    'Idempotency-Key answers without `webhookSecret` (read it with GET /config). Needs MANAGE; 400 ' +
    'WEBHOOK_ENDPOINT_NOT_SET before webhooks were first configured. The ECDSA key is not rotated.',
  update:
    'Only the fields given change. webhookEndpoint: an https URL (http is accepted on sandbox platforms) on a ' +
    'public host: loopback, private, link-local, CGNAT, multicast, reserved and cloud metadata addresses are ' +
    'refused in every spelling (400), and names are resolved and checked again at every delivery, unless the ' +
    'operator allow-listed the host (`WEBHOOK_ALLOWED_HOSTS`); null turns webhooks off; the first one ' +
    'generates the webhook signing key pair and secret. umaDomain: where new customers’ UMA addresses are ' +
    'generated. supportedCurrencies replaces the list (each a currency the service supports: 400 ' +
    'INVALID_CURRENCY otherwise). embeddedWalletConfig: fields omitted are left as they are. ' +
    'cardSpendingControls: the spending controls of the platform’s cards that have none of their own (replaced ' +
    'as a whole; null removes them; see Card.spendingControls). ' +
    DECISION_ENDPOINTS,
};
