/** OpenAPI prose of the bank rail routes (the descriptions the controllers' decorators name). */

export const BANK_RAILS_TEXT = {
  inbox:
    'Every file the bank delivered into the rail’s inbox folder, newest first: status reports (pain.002), ' +
    'notifications (camt.054) and statements (camt.053). A file is RECEIVED when recorded with what it does to which ' +
    'payment (effects) and the entries it could not take (problems, each with its reason), APPLIED once its effects ' +
    'moved the payments, QUARANTINED with a quarantineReason when nothing of it could be taken (unreadable XML, a ' +
    'message of another kind or for another account, a copy of a file already received). 404 BANK_RAIL_NOT_FOUND ' +
    'when the platform has no rail in that currency.',
  exceptions:
    'Credits to the rail’s bank account that named no payment (no end-to-end id) and no internal account’s ' +
    'funding reference (FUND-… in the remittance information): the money is held in the platform’s suspense ' +
    'account (OPEN) until an operator assigns it (ASSIGNED). A credit whose remittance carries an account’s funding ' +
    'reference is credited to that account at once and is not listed (unless the account is closed, its customer ' +
    'deleted: then it is held here); one whose remittance carries a real-time ' +
    'funded quote’s reference (TX-…, from its paymentInstructions) starts that quote, or is held here with a ' +
    'reason when the quote cannot take it (expired, another amount, already paid). Amounts in the smallest unit, ' +
    'as strings.',
  assign:
    'Moves a credit held in suspense into a customer’s internal account of the same currency (a ledger transfer out ' +
    'of the suspense account). Assigning it again to the same account answers the same; to another account: 409 ' +
    'BANK_CREDIT_ASSIGNED. 404 when the credit or the account is unknown; 400 CURRENCY_MISMATCH when the account ' +
    'holds another currency.',
  return:
    'Sends a credit held in suspense back to its payer: a credit transfer to the account the bank named as the ' +
    'payer, written into the rail’s next pain.001. The credit is RETURNING until the bank books the return ' +
    '(RETURNED: the money leaves the suspense account) or rejects it (OPEN again). Sending it again while ' +
    'RETURNING answers the same; 409 BANK_CREDIT_ASSIGNED for a credit given to an account, 409 ' +
    'BANK_CREDIT_NOT_RETURNABLE when the bank named no payer account.',
  reconciliations:
    'Each day’s statement (camt.053) reconciled against the ledger’s movements on the rail’s bank account, newest ' +
    'day first: every booked entry matched to a movement of that day and every movement of the day to an entry, the ' +
    'opening balance equal to the ledger’s, the closing balance equal once the entry breaks are accounted for. ' +
    'breaks lists each difference (ENTRY_NOT_IN_LEDGER, MOVEMENT_NOT_ON_STATEMENT, AMOUNT_DIFFERS, DATE_DIFFERS, ' +
    'OPENING_BALANCE_DIFFERS, CLOSING_BALANCE_DIFFERS); a day without breaks is closed. Balances and amounts are in ' +
    'the smallest unit, as strings (a debit balance is negative).',
};
