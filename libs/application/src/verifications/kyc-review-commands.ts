import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { beneficialOwnerDecider } from '#domain/beneficial-owners/beneficial-owner.js';
import { customerDecider } from '#domain/customers/customer.js';
import { DomainError, invalid, notFound } from '#domain/errors.js';
import { streams, uuidOf } from '#domain/primitives.js';
import { reviewOutcome } from '#domain/verifications/review.js';
import {
  requireReview,
  reviewAlreadyDecided,
  verificationDecider,
  verificationStream,
  type ReviewDecision,
} from '#domain/verifications/verification.js';
import { BeneficialOwnerQueries } from '../beneficial-owners/beneficial-owner-queries.js';
import { CommandContext } from '../command-context.js';
import { customerStream } from '../customers/customer-commands.js';
import type { Actor } from '../tokens.js';

/** The actor the KYC provider's decisions are recorded under. */
export const KYC_PROVIDER_ACTOR = 'system:kyc-provider';

export class DecideKycReviewCommand {
  constructor(
    readonly verificationId: string,
    readonly decision: ReviewDecision,
    readonly reason: string | undefined,
    readonly actor: Actor,
  ) {}
}

/** The stream of a review (its verification's), or the 404 of a review that does not exist. */
function reviewStream(id: string): string {
  if (!uuidOf('Verification', id)) throw notFound('KYC_REVIEW', id);
  return verificationStream(id);
}

/**
 * Decides a production customer's KYC review (an operator's approve or reject, or the KYC provider's signed
 * result). The verification records the decision first, so that a review is decided once (a second decision is a
 * 409); then the owners still PENDING take an approval, and the customer takes the decision as a verification
 * outcome (kycStatus / kybStatus, accounts activated, CUSTOMER.KYC_* webhooks, cards waiting for KYC issued by the
 * card reactor), with the reviewer, the time and the reason in its history.
 */
@CommandHandler(DecideKycReviewCommand)
export class DecideKycReviewHandler implements ICommandHandler<DecideKycReviewCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly owners: BeneficialOwnerQueries,
  ) {}

  async execute({ verificationId: id, decision, reason, actor }: DecideKycReviewCommand) {
    if (decision === 'REJECTED' && !reason?.trim())
      throw invalid('INVALID_INPUT', 'reason is required to reject a KYC review', 'reason');
    const stream = reviewStream(id);
    const { state } = await this.ctx.runner.load(stream, verificationDecider);
    if (state.verification?.platformId !== actor.platformId) throw notFound('KYC_REVIEW', id);
    const verification = requireReview(state, id);
    if (verification.review.status !== 'PENDING') throw reviewAlreadyDecided(id, verification.review);
    const { customerId, customerType } = verification;
    const business = customerType === 'BUSINESS';
    const owners = business ? await this.owners.outcomesOf(actor.platformId, customerId) : [];
    const now = await this.ctx.nowIso(actor.platformId);
    const outcome = reviewOutcome(decision, { customerId, reason, owners });
    await this.ctx.runner.run(
      stream,
      verificationDecider,
      { type: 'DecideReview', decision, reason, decidedBy: actor.actor, ...outcome, now },
      { metadata: { ...actor } },
    );
    if (business && decision === 'APPROVED') {
      for (const owner of owners.filter((o) => o.kycStatus === 'PENDING'))
        await this.ctx.runner.run(
          streams.beneficialOwner(owner.beneficialOwnerId),
          beneficialOwnerDecider,
          { type: 'DecideBeneficialOwnerKyc', kycStatus: 'APPROVED', now },
          { metadata: { ...actor, verificationId: id } },
        );
    }
    await this.decideCustomer(id, customerId, business, { decision, reason, actor, now });
    return id;
  }

  /** The customer takes the decision; a customer deleted since has no status left to decide. */
  private async decideCustomer(
    verificationId: string,
    customerId: string,
    business: boolean,
    d: { decision: ReviewDecision; reason?: string; actor: Actor; now: string },
  ) {
    const owners = business ? await this.owners.outcomesOf(d.actor.platformId, customerId) : undefined;
    const review = { verificationId, decision: d.decision, decidedBy: d.actor.actor, reason: d.reason };
    try {
      await this.ctx.runner.run(
        customerStream(customerId),
        customerDecider,
        { type: 'ChangeKycStatus', kycStatus: d.decision, ...(owners ? { owners } : {}), review, now: d.now },
        { metadata: { ...d.actor, verificationId } },
      );
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'CUSTOMER_NOT_FOUND')) throw error;
    }
  }
}
