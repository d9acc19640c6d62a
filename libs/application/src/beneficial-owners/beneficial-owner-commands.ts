import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  beneficialOwnerDecider,
  ownerOutcome,
  requireOwner,
  type BeneficialOwnerChanges,
  type BeneficialOwnerRole,
  type BeneficialOwnerState,
  type PersonalInfo,
} from '#domain/beneficial-owners/beneficial-owner.js';
import { customerDecider } from '#domain/customers/customer.js';
import { notABusiness } from '#domain/customers/kyb.js';
import { DomainError, notFound } from '#domain/errors.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { CommandContext, PlatformClocks } from '../command-context.js';
import { CommandRunner } from '../command-runner.js';
import { customerStream, loadOwnCustomer } from '../customers/customer-commands.js';
import { isSandboxPlatform } from '../platforms/platform-config.js';
import type { Actor } from '../tokens.js';
import { effectId } from '../idempotency/effect-ids.js';

export class CreateBeneficialOwnerCommand {
  constructor(
    readonly input: {
      customerId: string;
      roles: BeneficialOwnerRole[];
      ownershipPercentage: number;
      personalInfo: PersonalInfo;
    },
    readonly actor: Actor,
  ) {}
}

export class UpdateBeneficialOwnerCommand {
  constructor(
    readonly beneficialOwnerId: string,
    readonly changes: BeneficialOwnerChanges,
    readonly actor: Actor,
  ) {}
}

/** The stream of an owner id, or a 404 that does not reveal whether the id exists elsewhere. */
export function beneficialOwnerStream(id: string): string {
  if (!uuidOf('BeneficialOwner', id)) throw notFound('BENEFICIAL_OWNER', id);
  return streams.beneficialOwner(id);
}

/** An owner of this platform's business; 404 otherwise. */
export async function loadOwnBeneficialOwner(runner: CommandRunner, id: string, platformId: string) {
  const { state } = await runner.load(beneficialOwnerStream(id), beneficialOwnerDecider);
  if (!state.exists || state.owner?.platformId !== platformId) throw notFound('BENEFICIAL_OWNER', id);
  return state;
}

/** What owners need of their platform: its time, and whether KYC answers at once (sandbox). */
async function platformFacts(runner: CommandRunner, clocks: PlatformClocks, platformId: string) {
  return { sandbox: await isSandboxPlatform(runner, platformId), now: (await clocks.now(platformId)).toISOString() };
}

/**
 * The business records the owner's current outcome and decides its KYB again. The owner's stream
 * is written first: a crash in between leaves an outcome the business lacks, which the owner's next
 * update or the business's next verification (which reads every owner again) records. A deleted
 * business has no KYB left to decide.
 */
async function reportToBusiness(runner: CommandRunner, owner: BeneficialOwnerState, actor: Actor, now: string) {
  const { id, customerId } = requireOwner(owner).owner;
  try {
    await runner.run(
      customerStream(customerId),
      customerDecider,
      { type: 'RecordBeneficialOwnerKyc', owner: ownerOutcome(owner), now },
      { metadata: { ...actor, beneficialOwnerId: id } },
    );
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'CUSTOMER_NOT_FOUND')) throw error;
  }
}

@CommandHandler(CreateBeneficialOwnerCommand)
export class CreateBeneficialOwnerHandler implements ICommandHandler<CreateBeneficialOwnerCommand, string> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ input, actor }: CreateBeneficialOwnerCommand) {
    const customer = await loadOwnCustomer(this.ctx.runner, input.customerId, actor);
    if (customer.isDeleted) throw notFound('CUSTOMER', input.customerId);
    if (customer.customerType !== 'BUSINESS') throw notABusiness(input.customerId, customer.customerType);
    const { sandbox, now } = await platformFacts(this.ctx.runner, this.ctx.clocks, actor.platformId);
    const id = publicId('BeneficialOwner', effectId(actor, this.ctx.ids));
    const { state } = await this.ctx.runner.run(
      streams.beneficialOwner(id),
      beneficialOwnerDecider,
      { type: 'CreateBeneficialOwner', id, platformId: actor.platformId, ...input, sandbox, now },
      { metadata: { ...actor } },
    );
    await reportToBusiness(this.ctx.runner, state, actor, now);
    return id;
  }
}

@CommandHandler(UpdateBeneficialOwnerCommand)
export class UpdateBeneficialOwnerHandler implements ICommandHandler<UpdateBeneficialOwnerCommand> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ beneficialOwnerId, changes, actor }: UpdateBeneficialOwnerCommand) {
    await loadOwnBeneficialOwner(this.ctx.runner, beneficialOwnerId, actor.platformId);
    const { sandbox, now } = await platformFacts(this.ctx.runner, this.ctx.clocks, actor.platformId);
    const { state } = await this.ctx.runner.run(
      streams.beneficialOwner(beneficialOwnerId),
      beneficialOwnerDecider,
      { type: 'UpdateBeneficialOwner', changes, sandbox, now },
      { metadata: { ...actor } },
    );
    // Even when nothing changed: the business may still lack this outcome after a crash.
    await reportToBusiness(this.ctx.runner, state, actor, now);
  }
}
