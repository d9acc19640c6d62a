/** OpenAPI prose of the sandbox routes (the descriptions the controllers' decorators name). */

export const STATE_ERRORS =
  'A transaction in the wrong status for the message is 400 INVALID_INPUT; an amount past what is ' +
  'left is 400 INVALID_AMOUNT; a transaction of another card or platform (or a declined ' +
  'authorization, which opens none) is 404 CARD_TRANSACTION_NOT_FOUND.';

/** Descriptions of the routes of sandbox-cards.controller.ts, by handler. */
export const SANDBOX_CARDS_TEXT = {
  authorize:
    'Declined with 400 and the decline reason as `code` (the authorization is kept in the card’s ' +
    'audit history; it opens no transaction): CARD_PAUSED (FROZEN card, or a merchant descriptor ' +
    'ending in 003), CARD_CLOSED, CARD_NOT_ACTIVE (PENDING_KYC, PENDING_ISSUE), CURRENCY_MISMATCH ' +
    '(currency.code other than the card’s), then the spending controls (the card’s own, else the platform’s ' +
    'cardSpendingControls): MERCHANT_CATEGORY_BLOCKED, MERCHANT_CATEGORY_NOT_ALLOWED, ' +
    'MERCHANT_COUNTRY_NOT_ALLOWED, SPENDING_LIMIT_PER_AUTHORIZATION, SPENDING_LIMIT_DAILY, SPENDING_LIMIT_MONTHLY ' +
    '(checked again when the authorization is recorded, so concurrent authorizations never pass a limit together), ' +
    'INSUFFICIENT_FUNDS (descriptor ending in 002, or no ' +
    'funding source has the funds), PLATFORM_DECLINED (the platform’s CARD_AUTHORIZATION.REQUEST decision ' +
    'endpoint, or its default, declined: `details.decision` says who, with the reason or the fallback). An ' +
    'authorization that passed the card’s screening and spending controls is first put to that endpoint when the ' +
    'platform registered one (PATCH /config decisionEndpoints); its approvedAmount (a partial approval) is what is ' +
    'held. Otherwise the funding sources are tried in order and the first ' +
    'ACTIVE one with the funds gets a hold (a pending ledger transfer to the platform’s settlement ' +
    'account of the currency) and the answer is the AUTHORIZED CardTransaction; with a descriptor ' +
    'ending in 006 the pull is then reported failed: the hold is released and the transaction is ' +
    'in EXCEPTION (a later clearing pulls anew, as a late presentment). An approval not ' +
    'cleared within 7 days (sandbox clock) expires: its hold is released and it ends SETTLED with ' +
    'nothing settled; a later clearing is a late presentment.',
  clear:
    'Needs an AUTHORIZED or PARTIALLY_SETTLED transaction (or one in EXCEPTION, presented again). ' +
    'amount defaults to what is held; less posts that part of the hold and holds the rest again ' +
    '(PARTIALLY_SETTLED: later clearings take from it; if the funding source spent the rest ' +
    'meanwhile, nothing stays held and it is SETTLED); more ' +
    '(over-authorization) also pulls the extra from the funding source as a separate posted ' +
    'transfer (pullSummary.count 2); without the funds nothing moves and the transaction is in ' +
    'EXCEPTION (the hold stays). 0 lets the authorization expire now: what is held is released ' +
    'and the transaction is SETTLED. Clears whatever the card’s state. Late ' +
    'presentment: after the hold was released (card closed, authorization expired) a clearing ' +
    'pulls the amount anew from the same funding source, EXCEPTION without the funds. ' +
    STATE_ERRORS,
  refund:
    'Moves the amount (default: all settled and not yet returned) back from the settlement ' +
    'account to the funding source that paid, also after the card closed. The transaction is ' +
    'REFUNDED once everything settled was returned, SETTLED with a refundedAmount before. ' +
    STATE_ERRORS,
};

/** Descriptions of the routes of sandbox-money.controller.ts, by handler. */
export const SANDBOX_MONEY_TEXT = {
  send:
    'For quotes funded from an external account: simulates the payer sending exactly ' +
    'totalSendingAmount in the sending currency before expiresAt; the quote then starts as if executed.',
  receive:
    'An incoming payment to a customer (by receiverUmaAddress or customerId), credited from the ' +
    'platform’s settlement account into the customer’s account in receivingCurrencyCode (INCOMING transaction). ' +
    'Senders $pending.long.…@… wait for POST /transactions/{id}/approve or /reject (FAILED with ' +
    'PAYMENT_APPROVAL_TIMED_OUT after an hour); $fail.compliance.…@… are REJECTED; any other ' +
    'sender is credited at once.',
};

/** Descriptions of the routes of sandbox.controller.ts, by handler. */
export const SANDBOX_TEXT = {
  fund:
    'A balanced ledger transfer from the platform’s settlement account in the account’s currency. 400 ' +
    'AMOUNT_OUT_OF_RANGE when it would take the account’s or the settlement account’s balance past 2^53-1.',
};
