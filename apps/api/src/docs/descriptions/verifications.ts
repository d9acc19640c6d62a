/** OpenAPI prose of the verifications routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of verifications.controller.ts, by handler. */
export const VERIFICATIONS_TEXT = {
  create:
    'Fields the check needs and the customer lacks are listed in `errors` (MISSING_FIELD with its `field`) and the ' +
    'verification is RESOLVE_ERRORS (the customer is unchanged): individuals need fullName, birthDate and address ' +
    '(line1, city, postalCode, country); businesses need businessInfo.legalName, businessInfo.registrationNumber ' +
    'and address. Documents and beneficial owners the check needs are listed the same way (MISSING_*_DOCUMENT with ' +
    '`acceptedDocumentTypes`, MISSING_BENEFICIAL_OWNER): every production customer needs them, a sandbox customer ' +
    'as said below. Otherwise the outcome becomes the customer’s kycStatus (kybStatus for businesses): IN_PROGRESS ' +
    'while undecided (kycStatus PENDING), APPROVED (its PENDING internal accounts become ACTIVE) or REJECTED. A ' +
    'business is approved only when its beneficial owners are too: it takes the worst of its own check and their ' +
    'KYC, and each REJECTED owner is an APPLICANT_REJECTED error with its `resourceId`. Sandbox: the last three ' +
    'characters of the registration number (businesses) or last name (individuals) select 001 IN_PROGRESS, 002 ' +
    'REJECTED, 003 documents and owners required, otherwise APPROVED.',
  list: 'Newest first.',
};

/** Descriptions of the routes of kyc-reviews.controller.ts, by handler. */
export const KYC_REVIEWS_TEXT = {
  list:
    'The KYC review queue of a production platform, oldest first: each complete verification of a production ' +
    'customer (IN_PROGRESS) waits here until an operator (these routes, the console’s KYC reviews page) or the ' +
    'platform’s KYC provider (POST /kyc-provider/callback) decides it. Filter by `status` (PENDING, APPROVED, ' +
    'REJECTED). Sandbox verifications never enter the queue: their magic values decide them at once.',
  get:
    'The review with what a reviewer looks at: the customer’s data, its documents and, for a business, its ' +
    'beneficial owners with theirs; each document’s `contentPath` opens its file through the documents API.',
  approve:
    'Approves the customer: the verification becomes APPROVED, the beneficial owners still PENDING become ' +
    'APPROVED, the customer’s kycStatus (kybStatus) becomes APPROVED exactly as a sandbox approval makes it (its ' +
    'PENDING internal accounts become ACTIVE, the `CUSTOMER.KYC_APPROVED` or `CUSTOMER.KYB_APPROVED` and ' +
    '`VERIFICATION.APPROVED` webhooks are sent, cards waiting in PENDING_KYC are issued). The decider (the API ' +
    'token), the time and the optional `reason` are in the customer’s audit history (KycReviewDecided). A review ' +
    'is decided once: a second decision is 409 KYC_REVIEW_ALREADY_DECIDED.',
  reject:
    'Rejects the customer with a `reason` (required): the verification becomes REJECTED with an APPLICANT_REJECTED ' +
    'error carrying the reason, the customer’s kycStatus (kybStatus) becomes REJECTED with its webhooks, and the ' +
    'decider, time and reason are in the customer’s audit history. A review is decided once (409).',
};

/** Descriptions of the routes of kyc-provider.controller.ts, by handler. */
export const KYC_PROVIDER_TEXT = {
  callback:
    'The platform’s KYC provider answers a review it was sent: `{reviewId, decision: APPROVED | REJECTED, reason}` ' +
    '(reason required to reject), decided exactly as the operator’s approve or reject (actor ' +
    '`system:kyc-provider` in the customer’s audit history). No platform credentials: `X-Kyc-Provider-Platform` ' +
    'names the platform and `X-Kyc-Provider-Signature: t=<unix seconds>,v1=<hex>` carries HMAC-SHA256 of ' +
    '`<t>.<raw body>` with the platform’s shared secret (the card processor’s scheme); a missing, malformed, wrong ' +
    'or stale (more than 5 minutes from the platform’s clock) signature, or a platform without a provider, is 401 ' +
    'KYC_PROVIDER_SIGNATURE_INVALID and changes nothing. A review already decided is 409.',
  get: 'The platform’s KYC provider endpoint (never the secret). Without one, reviews wait for an operator.',
  put:
    'Production platforms only (sandbox platforms keep their magic values: 400 KYC_PROVIDER_NOT_FOR_SANDBOX). Each ' +
    'verification that then waits for review is POSTed to `url` (https) as `{type: "KYC_REVIEW.SUBMITTED", ' +
    'platformId, submittedAt, callbackPath, review}` (the review as GET /verifications/reviews/{id} shows it), ' +
    'signed like the callback with `secret`; a provider that cannot be reached leaves the review for an operator.',
  remove: 'Removes the provider: reviews wait for an operator again.',
};
