/** OpenAPI prose of the cards routes (the descriptions the controllers' decorators name). */

export const STATUSES =
  'status: AUTHORIZED (funds held, nothing cleared), PARTIALLY_SETTLED (a clearing posted part and the ' +
  'rest is still held for more), SETTLED (closed against the funding source: cleared, or what was held ' +
  'released when the authorization expired or the card closed), REFUNDED (everything settled was ' +
  'returned), EXCEPTION (a clearing arrived that the funding source could not pay).';

/** Descriptions of the routes of card-transactions.controller.ts, by handler. */
export const CARD_TRANSACTIONS_TEXT = {
  list:
    'Every approved authorization of the card with what reconciled against it (declined ' +
    'authorizations open none; they are in the card’s audit history). Filters: status, ' +
    'createdAfter and createdBefore (inclusive bounds on the authorization time). Newest first ' +
    `unless sortOrder=asc. ${STATUSES} Another platform’s card answers 404.`,
  get: `${STATUSES} Another platform’s transaction answers 404 CARD_TRANSACTION_NOT_FOUND.`,
};

export const LIFECYCLE =
  'States: a card requested for a holder whose KYC is PENDING starts PENDING_KYC and moves to ' +
  'PENDING_ISSUE when the holder is approved (a REJECTED holder gets 400 CARDHOLDER_KYC_NOT_APPROVED); ' +
  'PENDING_ISSUE lasts while the issuer provisions the card (sandbox: 5 seconds on the sandbox ' +
  'clock), then ACTIVE, or CLOSED with stateReason ISSUER_REJECTED when the issuer refuses it ' +
  '(sandbox: a platformCardId ending in 002). brand and issuerRef are set on request; last4, ' +
  'expMonth, expYear and panEmbedUrl (the issuer iframe that shows PAN, CVV and expiry; the full ' +
  'PAN and CVV never pass through this service) once issued. ' +
  'The service closes the open cards of a deleted holder (stateReason CLOSED_BY_SERVICE). The form ' +
  'factor is the field `form` (only VIRTUAL). The currency derives from the funding sources.';

export const OWNER =
  'The card’s owning internal account is the holder’s EMBEDDED_WALLET account in the card’s ' +
  'currency, recorded when the card is created (a holder without one gets 400 CARDHOLDER_WALLET_REQUIRED); ' +
  'changes are a signed retry stamped by an active session of that account.';

export const SPENDING =
  'spendingControls: the card’s own spending controls (see SpendingControls; absent or null: the platform’s ' +
  'cardSpendingControls of PATCH /config apply); 400 INVALID_INPUT naming the field for a limit outside 1 to ' +
  '9000000000000000, a malformed code or both category lists.';

/** Descriptions of the routes of cards.controller.ts, by handler. */
export const CARDS_TEXT = {
  create:
    `${LIFECYCLE} Funding sources: at least one, each an open internal account of the ` +
    `holder, all in one currency, tried in the given order by authorization. ${OWNER} ${SPENDING}`,
  list:
    'Filters: customerId (holder), accountId (cards that internal account funds; closed cards ' +
    'have no bindings), platformCardId, state. Newest first unless sortOrder=asc.',
  update:
    'state: ACTIVE <-> FROZEN, ACTIVE/FROZEN -> CLOSED (stateReason CLOSED_BY_PLATFORM, funding ' +
    'sources detached, open authorizations reversed and their holds released; CLOSED is ' +
    'terminal); any other transition is 409 INVALID_STATE_TRANSITION. ' +
    'fundingSources replaces the whole ordered binding (at least one, the holder’s, in the card ' +
    'currency) and cannot accompany state CLOSED. ' +
    'spendingControls replaces the card’s own controls as a whole, null removes them (not on a CLOSED card: 409); ' +
    'emits no webhook (the Card resource shows them). ' +
    `Emits card.state_change / card.funding_source_change (events CardStateChanged / ` +
    `CardFundingSourcesChanged). ${OWNER} A request that would be refused is refused before a challenge is issued.`,
  backtest:
    'Replays the card’s authorizations recorded in [from, to) (at most 366 days) from its event stream against a ' +
    'draft of spending controls, and answers what the draft would have decided differently; nothing is written ' +
    '(no signature needed). Each authorization is decided again by the same rules the card applies, on the card ' +
    'as it was then: a decline by the card’s state or currency stands; then the draft’s controls, whose daily and ' +
    'monthly usage counts the approvals the draft itself would have made (approvals before `from` count as they ' +
    'were decided); then the funds as the history found them (INSUFFICIENT_FUNDS stays so; an approval had them; ' +
    'an authorization the controls in force declined and the draft approves is marked fundsAssumed). The answer ' +
    'lists each changed authorization (at most 10,000; changesTruncated says when more changed) with its actual ' +
    'and draft decision, the count and amount per pair of decisions, and totals. 400 INVALID_INPUT for bad ' +
    'controls or period; another platform’s card 404 CARD_NOT_FOUND.',
};
