import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { customerDecider, type CustomerState } from '#domain/customers/customer.js';
import { notFound } from '#domain/errors.js';
import { publicId } from '#domain/primitives.js';
import {
  kycStatusFrom,
  verificationDecider,
  verificationOutcome,
  verificationStream,
  withOwners,
} from '#domain/verifications/verification.js';
import { CommandContext } from '../command-context.js';
import { BeneficialOwnerQueries } from '../beneficial-owners/beneficial-owner-queries.js';
import { customerStream, loadOwnCustomer } from '../customers/customer-commands.js';
import { READ_MODELS, type Actor } from '../tokens.js';
import { documentsRequired, verificationRequirements } from '#domain/verifications/requirements.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { allForPlatform } from '../queries/list-query.js';
import { isSandboxPlatform } from '../platforms/platform-config.js';
import { KycProviderSettings } from './kyc-provider.js';
import { effectId } from '../idempotency/effect-ids.js';

export class CreateVerificationCommand {
  constructor(
    readonly customerId: string,
    readonly actor: Actor,
  ) {}
}

/**
 * Submits a customer for KYC/KYB. The customer takes the outcome first (approval activates the
 * customer's pending accounts), then the verification is recorded. A business's outcome is its own
 * check together with its beneficial owners' KYC, each owner read again from its stream; the owners
 * that keep it from approval are listed in the verification's errors. A crash in between leaves no
 * recorded verification whose outcome the customer lacks: the caller got no answer, submits again,
 * and the customer command changes nothing that is already so.
 */
@CommandHandler(CreateVerificationCommand)
export class CreateVerificationHandler implements ICommandHandler<CreateVerificationCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly owners: BeneficialOwnerQueries,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    private readonly provider: KycProviderSettings,
  ) {}

  /** Types of the documents the customer holds. */
  private async documentTypes(platformId: string, customerId: string): Promise<string[]> {
    const filters: Filter[] = [{ field: 'documentHolder', op: 'eq', value: customerId }];
    const documents = await allForPlatform(this.readModels, Collections.documents, platformId, filters);
    return documents.map((d) => String(d.documentType));
  }

  async execute({ customerId, actor }: CreateVerificationCommand) {
    const customer = await loadOwnCustomer(this.ctx.runner, customerId, actor);
    if (customer.isDeleted) throw notFound('CUSTOMER', customerId);
    const customerType = customer.customerType;
    const business = customerType === 'BUSINESS';
    const sandbox = await isSandboxPlatform(this.ctx.runner, actor.platformId);
    const requirements = documentsRequired(customerType, customer.profile, sandbox)
      ? verificationRequirements({
          customerId,
          customerType,
          profile: customer.profile,
          sandbox,
          documents: await this.documentTypes(actor.platformId, customerId),
          beneficialOwners: business ? (await this.owners.outcomesOf(actor.platformId, customerId)).length : 0,
        })
      : [];
    let outcome = verificationOutcome(customerType, customer.profile, sandbox, customerId, requirements);
    const id = publicId('Verification', effectId(actor, this.ctx.ids));
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const kycStatus = kycStatusFrom(outcome.verificationStatus);
    let decided: CustomerState = customer;
    if (kycStatus) {
      const owners = business ? await this.owners.outcomesOf(actor.platformId, customerId) : undefined;
      ({ state: decided } = await this.ctx.runner.run(
        customerStream(customerId),
        customerDecider,
        { type: 'ChangeKycStatus', kycStatus, ...(owners ? { owners } : {}), now },
        { metadata: { ...actor, verificationId: id } },
      ));
    }
    if (business) outcome = withOwners(outcome, decided);
    await this.ctx.runner.run(
      verificationStream(id),
      verificationDecider,
      {
        type: 'CreateVerification',
        id,
        platformId: actor.platformId,
        customerId,
        customerType,
        ...outcome,
        review: !sandbox,
        now,
      },
      { metadata: { ...actor } },
    );
    // A production check waiting for review goes to the platform's KYC provider, if it has one.
    if (!sandbox && outcome.verificationStatus === 'IN_PROGRESS') await this.provider.submit(actor.platformId, id);
    return id;
  }
}
