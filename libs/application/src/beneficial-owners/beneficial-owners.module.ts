import { Module } from '@nestjs/common';
import { CreateBeneficialOwnerHandler, UpdateBeneficialOwnerHandler } from './beneficial-owner-commands.js';
import { BeneficialOwnerQueries } from './beneficial-owner-queries.js';

/**
 * Beneficial owners of business customers, and the KYC outcomes their businesses' KYB takes into account.
 */
@Module({
  providers: [CreateBeneficialOwnerHandler, UpdateBeneficialOwnerHandler, BeneficialOwnerQueries],
  exports: [BeneficialOwnerQueries],
})
export class BeneficialOwnersModule {}
