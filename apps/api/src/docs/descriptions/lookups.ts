/** OpenAPI prose of the lookups routes (the descriptions the controllers' decorators name). */

export const SENDER =
  'With ?customerId (or ?senderUmaAddress of a customer) the lookup belongs to that sender: a quote of another ' +
  'customer cannot use it (400 LOOKUP_MISMATCH), and estimatedExchangeRate is from the sender’s first currency ' +
  '(USD otherwise). supportedCurrencies[] carry the rate (not locked) and the min and max receivable amounts ' +
  '(smallest unit); every requiredPayerDataFields[] entry is mandatory. ';

/** Descriptions of the routes of lookups.controller.ts, by handler. */
export const LOOKUPS_TEXT = {
  uma:
    'Returns lookupId (Lookup:<uuid>) with the receiver’s supported currencies and requiredPayerDataFields ' +
    '(USD: FULL_NAME; EUR: FULL_NAME, BIRTH_DATE; others: FULL_NAME, BIRTH_DATE, NATIONALITY). ' +
    'Sandbox receivers: $success.<USD|EUR|MXN>@<any domain> (settles at once), ' +
    '$pending.long.<currency>@<domain> (settles after an hour), ' +
    '$fail.compliance.<currency>@<domain> (the pay request fails). Unknown addresses answer 404; the ' +
    'sender’s own address 400 SELF_PAYMENT. ' +
    SENDER,
};
