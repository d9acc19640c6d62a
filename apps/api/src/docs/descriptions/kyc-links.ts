/** OpenAPI prose of the kyc-links routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of kyc-links.controller.ts, by handler. */
export const KYC_LINKS_TEXT = {
  create:
    'A single-use link to the service’s own verification page, valid for 24 hours on the platform’s clock. ' +
    'Each call issues a new link; earlier ones stay valid until used or expired. The customer’s kycStatus does ' +
    'not change until the page is submitted; in the sandbox the outcome then follows the last-name or ' +
    'registration-number suffix rules at once.',
  addDocument:
    'multipart/form-data as `POST /documents` takes it, without documentHolder: the document belongs to the ' +
    'link’s customer. Only while the link is active (409 KYC_LINK_USED or KYC_LINK_EXPIRED otherwise).',
  addDocumentFile: 'The document file: PDF, JPEG or PNG.',
};
