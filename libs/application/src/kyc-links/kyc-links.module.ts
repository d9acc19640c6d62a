import { Module } from '@nestjs/common';
import { KycLinks } from './kyc-links.js';

/** Hosted KYC links: issued to a platform's customer, completed on the service's own page. */
@Module({ providers: [KycLinks], exports: [KycLinks] })
export class KycLinksModule {}
