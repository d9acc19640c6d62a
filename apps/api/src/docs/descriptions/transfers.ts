/** OpenAPI prose of the transfers routes (the descriptions the controllers' decorators name). */

export const OUTCOMES =
  'The accounts’ currency must be among the platform’s supportedCurrencies (GET /config): 400 ' +
  'INVALID_CURRENCY otherwise, nothing recorded. In the sandbox the external account’s last three digits ' +
  'select the outcome: 002 fails at once ' +
  '(insufficient funds), 003 fails at once (account closed or invalid), ' +
  '004 rejected by the bank (REJECTED after about 10 seconds), 005 pending about 30 seconds then ' +
  'FAILED, anything else completes at once. On a production platform the transfer goes through the bank rail of ' +
  'its currency (PATCH /config rails): a transfer-out as a credit transfer, a transfer-in as a direct debit under ' +
  'the external account’s directDebitMandate; it stays PROCESSING until the bank books it, and is REJECTED when ' +
  'the bank rejects it (bankReasonCode holds the ISO 20022 reason). Without a rail for the currency, or a pull ' +
  'without a mandate: 400 UNSUPPORTED_PAYMENT_RAIL, nothing recorded.';

/** Descriptions of the routes of transfers.controller.ts, by handler. */
export const TRANSFERS_TEXT = {
  transferIn:
    `Credits the internal account from the platform’s settlement account when the bank ` +
    `transfer settles (INCOMING transaction). amount is optional in the schema, as in the public API, but a ` +
    `pull needs it: 400 INVALID_AMOUNT without it. ${OUTCOMES}`,
  transferOut:
    `Holds the amount on the internal account, posts it when the payout settles, ` +
    `releases it when it fails (OUTGOING transaction). 400 INSUFFICIENT_FUNDS when the balance ` +
    `does not cover it. Without amount the source account's whole available balance is sent (400 ` +
    `INVALID_AMOUNT when it is empty). ${OUTCOMES}`,
};
