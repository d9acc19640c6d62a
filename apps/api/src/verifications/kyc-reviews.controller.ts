import { applyDecorators, Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsOptional } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { REVIEW_STATUSES, type ReviewDecision } from '#domain/verifications/verification.js';
import { REVIEW_REASON_MAX } from '#domain/verifications/review.js';
import type { Actor } from '#application/tokens.js';
import { DecideKycReviewCommand } from '#application/verifications/kyc-review-commands.js';
import { KycReviewQueries } from '#application/verifications/kyc-review-queries.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { KYC_REVIEWS_TEXT } from '../docs/descriptions/verifications.js';
import { CurrentActor } from '../http/auth.js';
import { FilledText, OptionalFilledText } from '../http/fields.js';
import { IdParam } from '../http/id-pipe.js';
import { IdempotentAction } from '../http/retries.js';
import { PageParams } from '../http/list-params.js';
import { GetOne, GetPage } from '../http/routes.js';

export class ListKycReviewsQuery extends PageParams {
  /** The queue is worked from its head: oldest first unless asked otherwise. */
  @JSONSchema({ default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';

  @IsOptional()
  @IsIn(REVIEW_STATUSES, { message: `status must be one of ${REVIEW_STATUSES.join(', ')}` })
  status?: string;
}

export class ApproveKycReviewDto {
  /** Why the customer is approved, for the audit history. */
  @OptionalFilledText(REVIEW_REASON_MAX) reason?: string;
}

export class RejectKycReviewDto {
  /** Why the customer is rejected: kept in the audit history and the verification's APPLICANT_REJECTED error. */
  @FilledText(REVIEW_REASON_MAX) reason!: string;
}

const ReviewId = () => IdParam('Verification', 'reviewId');
const REVIEW = ok('The review, decided', 'KycReview');

const ReviewDecisionRoute = (decision: 'approve' | 'reject', summary: string, description: string) =>
  applyDecorators(
    IdempotentAction(`:reviewId/${decision}`),
    ApiResource(summary, REVIEW, { description, optionalBody: decision === 'approve', errors: [409] }),
  );

/** The KYC review queue of production customers: an operator approves or rejects each complete verification. */
@ApiTags('Verifications')
@Controller('verifications/reviews')
export class KycReviewsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: KycReviewQueries,
  ) {}

  @GetPage('', 'List KYC reviews', 'KYC reviews', 'KycReview', { description: KYC_REVIEWS_TEXT.list })
  list(@Query() query: ListKycReviewsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':reviewId', 'Get a KYC review', ok('The review', 'KycReviewDetail'), { description: KYC_REVIEWS_TEXT.get })
  get(@ReviewId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, id);
  }

  @ReviewDecisionRoute('approve', 'Approve a KYC review', KYC_REVIEWS_TEXT.approve)
  approve(@ReviewId() id: string, @Body() body: ApproveKycReviewDto, @CurrentActor() actor: Actor) {
    return this.decide(id, 'APPROVED', body?.reason, actor);
  }

  @ReviewDecisionRoute('reject', 'Reject a KYC review', KYC_REVIEWS_TEXT.reject)
  reject(@ReviewId() id: string, @Body() body: RejectKycReviewDto, @CurrentActor() actor: Actor) {
    return this.decide(id, 'REJECTED', body.reason, actor);
  }

  private async decide(id: string, decision: ReviewDecision, reason: string | undefined, actor: Actor) {
    await this.commands.execute(new DecideKycReviewCommand(id, decision, reason, actor));
    const {
      customer: _c,
      documents: _d,
      beneficialOwners: _o,
      ...review
    } = await this.queries.get(actor.platformId, id);
    return review;
  }
}
