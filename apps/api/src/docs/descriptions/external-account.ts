/** OpenAPI prose of the external-account routes (the descriptions the controllers' decorators name). */

export const SANDBOX_NOTE =
  'In the sandbox the beneficiary name check follows the last three characters of the primary ' +
  'identifier (account number, IBAN, CLABE, phone number, VPA name, PIX key, address): 102 NOT_MATCHED, 103 ' +
  'PARTIAL_MATCH, 104 PENDING, 105 refused as an invalid account (400, nothing created), 106 ' +
  'UNSUPPORTED, 107 CHECKED_BY_RECEIVING_FI, otherwise MATCHED.';

/** Descriptions of the routes of external-accounts.controller.ts, by handler. */
export const EXTERNAL_ACCOUNTS_TEXT = {
  createForCustomer:
    `The per-type fields of accountInfo are in the ExternalAccountCreateInfo schema; the currency ` +
    `must be one the account type holds. Without customerId the account is the platform’s own ` +
    `(listed under /platform/external-accounts). ${SANDBOX_NOTE}`,
  listForCustomers: 'Newest first; deleted accounts are not listed.',
  createForPlatform: `As for customers, without customerId. ${SANDBOX_NOTE}`,
  listForPlatform: 'Newest first; deleted accounts are not listed.',
};
