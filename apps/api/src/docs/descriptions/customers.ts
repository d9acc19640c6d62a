/** OpenAPI prose of the customers routes (the descriptions the controllers' decorators name). */

export const CSV_FORMAT =
  'One customer per row, columns named in the header, in any order. Required in the header: umaAddress, ' +
  'platformCustomerId, customerType (INDIVIDUAL or BUSINESS), addressLine1, city, state, postalCode, country ' +
  '(ISO 3166-1 alpha-2). Individuals also need fullName and birthDate (YYYY-MM-DD), businesses ' +
  'businessLegalName. Optional: addressLine2, email, businessRegistrationNumber, businessTaxId, and ' +
  'platformAccountId and description (accepted, not kept). A UMA address may be written without its `$`.';

/** Descriptions of the routes of customers-bulk.controller.ts, by handler. */
export const CUSTOMERS_BULK_TEXT = {
  uploadCsv:
    `${CSV_FORMAT} The file is checked whole before anything is stored: a header with a missing, ` +
    'unknown or repeated column, a file that is not CSV, without rows or with more than 100,000 is a ' +
    '400 INVALID_INPUT whose `details.errors` say why. Then a job creates the customers in the background, ' +
    'each row exactly as POST /customers would (same checks, uniqueness and sandbox KYC outcome); follow it ' +
    'with GET /customers/bulk/jobs/{jobId} or the BULK_UPLOAD webhook. Idempotency-Key identifies the ' +
    'file by its bytes. A process checks a bounded number of uploads at once (per platform and in all); ' +
    'an upload past the bound waits its turn before it is answered.',
  uploadCsvResponse202: 'Accepted: the import job',
  job: 'Status, progress counts and every failed row with its line. Another platform’s job is 404.',
};

/** Descriptions of the routes of customers.controller.ts, by handler. */
export const CUSTOMERS_TEXT = {
  create:
    'Opens one internal account per enabled currency (USD when none given; a currency the service ' +
    'does not support is 400 INVALID_CURRENCY). kycStatus (individuals) or kybStatus (businesses) ' +
    'records the platform’s own result; without it, in the sandbox the outcome follows the last three ' +
    'characters of the last name or registration number: 001 PENDING, 002 REJECTED, otherwise ' +
    'APPROVED. platformCustomerId (the customer’s uuid when omitted) is unique per platform ' +
    '(409 CONFLICT) and umaAddress in the installation (409 UMA_ADDRESS_EXISTS).',
  list: 'Newest first. Date filters are inclusive.',
  update:
    'customerType, when given, must be the customer’s. Fields of businessInfo not given are kept. ' +
    'kycStatus/kybStatus records the platform’s own result (APPROVED activates the accounts). ' +
    'Adding a currency opens an internal account in it; currencies cannot be removed. Changing ' +
    'the email of a customer whose embedded wallet has an EMAIL_OTP credential is a signed ' +
    'retry (stamped by a session of that wallet) and the credential follows the new email.',
  remove:
    'Closes the customer’s accounts; refused while they hold funds (409). A customer deleted before ' +
    'answers 410 CUSTOMER_DELETED.',
};
