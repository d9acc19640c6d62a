import { externalAccountSchemas } from './external-account.js';
import { invitationSchemas } from './invitations.js';
import { umaProviderSchemas } from './uma-providers.js';
import { verificationSchemas } from './verifications.js';
import { kycProviderSchemas, kycReviewSchemas } from './kyc-reviews.js';
import { documentSchemas } from './documents.js';
import { walletSchemas } from './wallet.js';
import { webhookSchemas } from './webhooks.js';
import { cardSchemas } from './cards.js';
import { lookupSchemas } from './lookups.js';
import { quoteSchemas } from './quotes.js';
import { paymentAccountInfoSchemas } from './payment-account-info.js';
import { rateSchemas } from './rates.js';
import { sandboxClockSchemas } from './sandbox-clock.js';
import { transactionSchemas } from './transactions.js';
import { agentSchemas } from './agents.js';
import { auditSchemas } from './audit.js';
import { beneficialOwnerSchemas } from './beneficial-owners.js';
import { kycLinkSchemas } from './kyc-links.js';
import { customersBulkSchemas } from './customers-bulk.js';
import { discoverySchemas } from './discoveries.js';
import { platformConfigSchemas } from './platform-config.js';
import { bankRailSchemas } from './bank-rails.js';
import { cardProcessorSchemas } from './card-processor.js';
/**
 * Response schemas contributed by each API area (one file per area, each exporting a
 * `Record<name, JSON Schema>`), merged into the OpenAPI document's components.
 * Schemas may reference each other and the shared ones (Error, Currency, Address, Customer,
 * InternalAccount, SignedRetryChallenge) with `{ $ref: '#/components/schemas/<Name>' }`.
 */
export const areaSchemas: Record<string, Record<string, unknown>>[] = [
  externalAccountSchemas,
  bankRailSchemas,
  verificationSchemas,
  kycReviewSchemas,
  kycProviderSchemas,
  beneficialOwnerSchemas,
  kycLinkSchemas,
  documentSchemas,
  umaProviderSchemas,
  invitationSchemas,
  walletSchemas,
  webhookSchemas,
  cardSchemas,
  rateSchemas,
  lookupSchemas,
  paymentAccountInfoSchemas,
  quoteSchemas,
  transactionSchemas,
  sandboxClockSchemas,
  agentSchemas,
  auditSchemas,
  customersBulkSchemas,
  discoverySchemas,
  platformConfigSchemas,
  cardProcessorSchemas,
];
