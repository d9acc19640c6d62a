import { Body, Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, Matches } from 'class-validator';
import type { Actor } from '#application/tokens.js';
import { DecideKycReviewCommand, KYC_PROVIDER_ACTOR } from '#application/verifications/kyc-review-commands.js';
import { KycProviderSettings } from '#application/verifications/kyc-provider.js';
import { KycReviewQueries } from '#application/verifications/kyc-review-queries.js';
import { REVIEW_REASON_MAX } from '#domain/verifications/review.js';
import { KYC_PROVIDER_PLATFORM_HEADER, KYC_PROVIDER_SIGNATURE_HEADER } from '#domain/verifications/kyc-provider.js';
import type { ReviewDecision } from '#domain/verifications/verification.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { KYC_PROVIDER_TEXT } from '../docs/descriptions/verifications.js';
import { CurrentActor, Public } from '../http/auth.js';
import { FilledText, OptionalFilledText } from '../http/fields.js';
import { publicIdPattern } from '#domain/primitives.js';
import { SignedCallerActor, SignedCallerGuard } from '../http/signed-callers.js';

const tag = 'Verifications';

export class KycProviderConfigDto {
  /** The provider's https endpoint, sent each verification that waits for review. */
  @FilledText(2048) url!: string;
  /** The shared secret both sides sign with (HMAC-SHA256); kept sealed, never shown again. */
  @FilledText(256) secret!: string;
}

export class KycProviderCallbackDto {
  @Matches(publicIdPattern('Verification'), { message: 'reviewId must have the form Verification:<uuid>' })
  reviewId!: string;
  @IsIn(['APPROVED', 'REJECTED'], { message: 'decision must be one of APPROVED, REJECTED' })
  decision!: ReviewDecision;
  /** Required to reject. */
  @OptionalFilledText(REVIEW_REASON_MAX) reason?: string;
}

/**
 * The provider's callback is authenticated by an HMAC of the raw body with the platform's shared secret (the card
 * processor's check), not by platform credentials: a missing, malformed, stale or wrong signature, an unknown
 * platform and one without a provider all answer 401 before anything is read or decided. The callback then acts for
 * the platform as `system:kyc-provider`.
 */
export const KycProviderSignatureGuard = SignedCallerGuard(KycProviderSettings, (settings) => ({
  platformHeader: KYC_PROVIDER_PLATFORM_HEADER,
  signatureHeader: KYC_PROVIDER_SIGNATURE_HEADER,
  code: 'KYC_PROVIDER_SIGNATURE_INVALID',
  actor: KYC_PROVIDER_ACTOR,
  verify: (platformId, signature, rawBody) => settings.verify(platformId, signature, rawBody),
}));

const ProviderActor = SignedCallerActor;

/** The KYC provider's signed answers: each decides a review as an operator's approve or reject would. */
@Controller('kyc-provider')
export class KycProviderCallbackController {
  constructor(
    private readonly commands: CommandBus,
    private readonly reviews: KycReviewQueries,
  ) {}

  @Post('callback')
  @HttpCode(200)
  @Public()
  @UseGuards(KycProviderSignatureGuard)
  @ApiDoc({
    summary: 'Receive the KYC provider’s decision',
    description: KYC_PROVIDER_TEXT.callback,
    tag,
    auth: 'none',
    responses: ok('The review, decided', 'KycReview'),
    errors: [400, 401, 404, 409],
    headers: [
      { name: KYC_PROVIDER_PLATFORM_HEADER, description: 'The platform: Platform:<uuid>.', required: true },
      { name: KYC_PROVIDER_SIGNATURE_HEADER, description: 't=<unix seconds>,v1=<hex HMAC-SHA256>.', required: true },
    ],
  })
  async callback(@Body() body: KycProviderCallbackDto, @ProviderActor() actor: Actor) {
    await this.commands.execute(new DecideKycReviewCommand(body.reviewId, body.decision, body.reason, actor));
    const {
      customer: _c,
      documents: _d,
      beneficialOwners: _o,
      ...review
    } = await this.reviews.get(actor.platformId, body.reviewId);
    return review;
  }
}

/** A production platform's KYC provider: its endpoint and shared secret. */
@Controller('config/kyc-provider')
export class KycProviderConfigController {
  constructor(private readonly settings: KycProviderSettings) {}

  @Get()
  @ApiDoc({
    summary: 'Get the KYC provider',
    description: KYC_PROVIDER_TEXT.get,
    tag,
    responses: ok('The provider', 'KycProviderConfig'),
  })
  get(@CurrentActor() actor: Actor) {
    return this.settings.view(actor.platformId);
  }

  @Put()
  @ApiDoc({
    summary: 'Set the KYC provider',
    description: KYC_PROVIDER_TEXT.put,
    tag,
    responses: ok('The provider', 'KycProviderConfig'),
    errors: [400],
  })
  put(@Body() body: KycProviderConfigDto, @CurrentActor() actor: Actor) {
    return this.settings.configure({ url: body.url, secret: body.secret }, actor);
  }

  @Delete()
  @ApiDoc({
    summary: 'Remove the KYC provider',
    description: KYC_PROVIDER_TEXT.remove,
    tag,
    responses: ok('The provider', 'KycProviderConfig'),
  })
  remove(@CurrentActor() actor: Actor) {
    return this.settings.remove(actor);
  }
}
