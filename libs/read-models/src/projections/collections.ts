/** Read-model collection names, shared by projections and queries. */
export const Collections = {
  platforms: 'platforms',
  apiTokens: 'api_tokens',
  customers: 'customers',
  internalAccounts: 'internal_accounts',
  ledgerTransfers: 'ledger_transfers',
  externalAccounts: 'external_accounts',
  verifications: 'verifications',
  invitations: 'invitations',
  authMethods: 'auth_methods',
  authSessions: 'auth_sessions',
  webhookDeliveries: 'webhook_deliveries',
  cards: 'cards',
  quotes: 'quotes',
  transactions: 'transactions',
  agents: 'agents',
  agentActions: 'agent_actions',
} as const;
