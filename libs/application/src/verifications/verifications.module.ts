import { Module } from '@nestjs/common';
import { CreateVerificationHandler } from './verification-commands.js';
import { VerificationQueries } from './verification-queries.js';
import { DecideKycReviewHandler } from './kyc-review-commands.js';
import { KycReviewQueries } from './kyc-review-queries.js';
import { KycProviderSettings } from './kyc-provider.js';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module.js';

/**
 * KYC/KYB verifications.
 */
@Module({
  imports: [BeneficialOwnersModule],
  providers: [
    CreateVerificationHandler,
    VerificationQueries,
    DecideKycReviewHandler,
    KycReviewQueries,
    KycProviderSettings,
  ],
  exports: [VerificationQueries, KycReviewQueries, KycProviderSettings],
})
export class VerificationsModule {}
