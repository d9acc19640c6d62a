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
