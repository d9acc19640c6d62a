/** OpenAPI prose of the crypto routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of crypto.controller.ts, by handler. */
export const CRYPTO_TEXT = {
  estimate:
    'What withdrawing `amount` from a crypto internal account to an external address would cost; nothing is ' +
    'recorded or moved. networkFee is in the smallest unit of networkFeeAsset (informational); totalFee ' +
    '(the network fee converted to the withdrawal currency plus applicationFee) and netAmount (what the ' +
    'recipient would receive) are in the smallest unit of the withdrawal currency. 400 INVALID_CURRENCY when the ' +
    'account does not hold `currency`, INVALID_INPUT for a network that does not carry it, ' +
    'AMOUNT_OUT_OF_RANGE when the fee would take the whole amount.',
};
