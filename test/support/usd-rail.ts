/** The USD bank rail the tests and the benchmark configure: an account and routing number, a creditor id for pulls. */
export const USD_RAIL = {
  currency: 'USD',
  type: 'ISO20022_FILES',
  account: { name: 'Acme Payments Inc', accountNumber: '7000123456', routingNumber: '021000021' },
  creditorSchemeId: 'ACME0001',
};
