/** OpenAPI prose of the quotes routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of quotes.controller.ts, by handler. */
export const QUOTES_TEXT = {
  create:
    'Locks the exchange rate and fees until expiresAt (5 minutes on instant rails, 15 on others, ' +
    '2 on Lightning/Spark/stablecoin rails). ' +
    'Source: a customer’s internal account (held on execute), an EMBEDDED_WALLET (execute needs a ' +
    'Service-Wallet-Signature over paymentInstructions[0].accountOrWalletInfo.payloadToSign) ' +
    'or a customer’s external account (funded by paying paymentInstructions; sandbox: POST ' +
    '/sandbox/send). REALTIME_FUNDING {customerId?, currency, cryptoNetwork?}: the customer pays `currency` ' +
    'by paymentInstructions and the payment starts when the funds arrive (sandbox: POST /sandbox/send; ' +
    'immediatelyExecute changes nothing); without customerId the destination account’s owner pays. ' +
    'Destination: an internal or external account, or a UMA address with the lookupId of ' +
    'GET /receiver/uma/{receiverUmaAddress} and optionally `currency`, one of the lookup’s supportedCurrencies ' +
    '(default: the first); fields named by the lookup’s requiredPayerDataFields ' +
    'must be in senderCustomerInfo. Receiving amounts round down; a RECEIVING-locked quote ' +
    'rounds the sending amount up. Both currencies must be among the platform’s supportedCurrencies ' +
    '(GET /config): 400 INVALID_CURRENCY otherwise, nothing recorded. ' +
    'Sandbox external-account destinations select the outcome by their last three digits: 002 ' +
    'execution fails, 003 completes after about 6 minutes, 004 delivery fails, 005 completes ' +
    'then is returned (FAILED, refunded), ' +
    '006 user cancellation (REFUNDED), 007 payout and refund fail (FAILED, money not returned), other success.',
  list: 'Newest first unless sortOrder=asc.',
  execute:
    'Holds the source amount and starts the payment. A quote past expiresAt cannot execute: it ' +
    'becomes EXPIRED (transaction EXPIRED, failureReason QUOTE_EXPIRED), nothing moves, and the ' +
    'answer is 409 QUOTE_EXPIRED. ' +
    'Insufficient funds answer 400 INSUFFICIENT_FUNDS and leave the quote PENDING, as does 400 ' +
    'AMOUNT_OUT_OF_RANGE when completing the payment would take a balance past 2^53-1, and 409 ' +
    'ACCOUNT_NOT_ACTIVE when an account of the quote closed since it was made (the payee customer or the ' +
    'external account deleted). An ' +
    'EMBEDDED_WALLET source needs Service-Wallet-Signature (401 WALLET_SIGNATURE_MISSING without it).',
  executeServiceWalletSignatureHeader:
    'EMBEDDED_WALLET sources: the stamp over paymentInstructions[].accountOrWalletInfo.payloadToSign made with ' +
    'a session key of the wallet. Ignored for other sources.',
  executeRequestIdHeader: 'Optional; when sent it must be the requestId bound into that payloadToSign.',
};
