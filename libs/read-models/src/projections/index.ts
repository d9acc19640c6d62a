import { customerProjection } from './customers/customer-projection.js';
import { externalAccountProjection } from './external-accounts/external-account-projection.js';
import { invitationProjection } from './invitations/invitation-projection.js';
import { verificationProjection } from './verifications/verification-projection.js';
import { kycReviewProjection } from './verifications/kyc-review-projection.js';
import { beneficialOwnerProjection } from './beneficial-owners/beneficial-owner-projection.js';
import { documentProjection } from './documents/document-projection.js';
import { internalAccountProjection } from './internal-accounts/internal-account-projection.js';
import { platformProjection } from './platforms/platform-projection.js';
import { walletAuthProjection } from './wallet/wallet-auth-projection.js';
import { webhookDeliveryProjection } from './webhooks/webhook-delivery-projection.js';
import { cardProjection } from './cards/card-projection.js';
import { cardTransactionProjection } from './cards/card-transaction-projection.js';
import { quoteProjection, transactionProjection } from './payments/payment-projections.js';
import { agentProjection } from './agents/agent-projection.js';
import { bulkImportProjection } from './customers/bulk-import-projection.js';

export * from './collections.js';
export * from './internal-account-docs.js';
export { customerProjection, internalAccountProjection, platformProjection };

/** Every projection the service runs, in the order they are registered. */
export const allProjections = [
  platformProjection,
  customerProjection,
  internalAccountProjection,
  externalAccountProjection,
  verificationProjection,
  kycReviewProjection,
  beneficialOwnerProjection,
  documentProjection,
  invitationProjection,
  walletAuthProjection,
  webhookDeliveryProjection,
  cardProjection,
  cardTransactionProjection,
  quoteProjection,
  transactionProjection,
  agentProjection,
  bulkImportProjection,
];
