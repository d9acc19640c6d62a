/** Read-model collection names, shared by projections and queries. */
export const Collections = {
  platforms: 'platforms',
  apiTokens: 'api_tokens',
  customers: 'customers',
  internalAccounts: 'internal_accounts',
  ledgerTransfers: 'ledger_transfers',
} as const;
