import { Global, Module } from '@nestjs/common';
import { CreateVerificationHandler } from './verification-commands.js';
import { VerificationQueries } from './verification-queries.js';

/**
 * KYC/KYB verifications.
 */
@Global()
@Module({ providers: [CreateVerificationHandler, VerificationQueries], exports: [VerificationQueries] })
export class VerificationsModule {}
