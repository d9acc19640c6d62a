import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, notFound } from '#domain/errors.js';
import { streams, toAmount } from '#domain/primitives.js';
import {
  INVITATION_CODE,
  invitationCode,
  invitationDecider,
  type ExistingInvitation,
} from '#domain/invitations/invitation.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../command-context.js';
import { CommandRunner } from '../command-runner.js';
import { loadOwnCustomer } from '../customers/customer-commands.js';
import { READ_MODELS, type Actor } from '../tokens.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_INVITATION_DAYS = 30;
export const MAX_INVITATION_DAYS = 365;

export class CreateInvitationCommand {
  constructor(
    readonly input: { inviterUma: string; firstName?: string; amountToSend?: number; expiresAt?: string },
    readonly actor: Actor,
  ) {}
}
export class CancelInvitationCommand {
  constructor(
    readonly code: string,
    readonly actor: Actor,
  ) {}
}
export class ClaimInvitationCommand {
  constructor(
    readonly code: string,
    readonly inviteeUma: string,
    readonly actor: Actor,
  ) {}
}

const badField = (field: string, constraint: string, message: string) =>
  new DomainError('invalid', 'INVALID_INPUT', message, { errors: [{ field, constraint, message }] });

/** The invitation under a code, whoever owns it; 404 for codes that were never issued. */
export async function loadInvitation(runner: CommandRunner, code: string): Promise<ExistingInvitation> {
  if (!INVITATION_CODE.test(code)) throw notFound('INVITATION', code);
  const { state } = await runner.load(streams.invitation(code), invitationDecider);
  if (!state.exists) throw notFound('INVITATION', code);
  return state;
}

@CommandHandler(CreateInvitationCommand)
export class CreateInvitationHandler implements ICommandHandler<CreateInvitationCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ input, actor }: CreateInvitationCommand) {
    const now = await this.ctx.now(actor.platformId);
    const expiresAt = input.expiresAt
      ? new Date(input.expiresAt)
      : new Date(now.getTime() + DEFAULT_INVITATION_DAYS * DAY_MS);
    if (expiresAt.getTime() <= now.getTime())
      throw badField('expiresAt', 'isFuture', 'expiresAt must be in the future');
    if (expiresAt.getTime() > now.getTime() + MAX_INVITATION_DAYS * DAY_MS)
      throw badField('expiresAt', 'maxDate', `expiresAt must be within ${MAX_INVITATION_DAYS} days`);
    const inviter = await this.inviter(input.inviterUma, actor);
    const currencyCode = inviter.profile.currencies?.[0] ?? 'USD';
    const amountToSend =
      input.amountToSend !== undefined
        ? { amount: toAmount(input.amountToSend, 'amountToSend'), currency: currencyCode }
        : undefined;
    const { state: platform } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
    // A 50-bit code collides rarely; an existing stream under the code just means: draw again.
    for (let attempt = 0; ; attempt++) {
      const invitation = invitationCode(this.ctx.ids.uuid());
      try {
        await this.ctx.runner.run(
          streams.invitation(invitation),
          invitationDecider,
          {
            type: 'CreateInvitation',
            code: invitation,
            platformId: actor.platformId,
            inviterCustomerId: inviter.id,
            inviterUma: input.inviterUma,
            url: `https://${platform.umaDomain}/invite/${invitation}`,
            ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
            ...(amountToSend ? { amountToSend } : {}),
            expiresAt: expiresAt.toISOString(),
            now: now.toISOString(),
          },
          { metadata: { ...actor } },
        );
        return invitation;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'INVITATION_EXISTS') || attempt >= 4) throw error;
      }
    }
  }

  /** The live customer of this platform that holds the UMA address. */
  private async inviter(umaAddress: string, actor: Actor) {
    const found = await this.readModels.find<Doc>(Collections.customers, {
      filters: [
        { field: 'platformId', op: 'eq', value: actor.platformId },
        { field: 'umaAddress', op: 'eq', value: umaAddress },
        { field: 'isDeleted', op: 'eq', value: false },
      ],
      sortOrder: 'asc',
      limit: 1,
    });
    const notOurs = badField(
      'inviterUma',
      'isCustomerUma',
      'inviterUma must be the UMA address of one of the platform’s customers',
    );
    if (found.data.length === 0) throw notOurs;
    const customer = await loadOwnCustomer(this.ctx.runner, found.data[0].id, actor);
    if (customer.isDeleted || customer.profile.umaAddress !== umaAddress) throw notOurs;
    return customer;
  }
}

@CommandHandler(CancelInvitationCommand)
export class CancelInvitationHandler implements ICommandHandler<CancelInvitationCommand> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ code, actor }: CancelInvitationCommand) {
    const state = await loadInvitation(this.ctx.runner, code);
    if (state.invitation.platformId !== actor.platformId) throw notFound('INVITATION', code);
    await this.ctx.runner.run(
      streams.invitation(code),
      invitationDecider,
      { type: 'CancelInvitation', now: (await this.ctx.now(actor.platformId)).toISOString() },
      { metadata: { ...actor } },
    );
  }
}

/** Called by the invitee's platform, which may be any platform: the code itself is the secret. */
@CommandHandler(ClaimInvitationCommand)
export class ClaimInvitationHandler implements ICommandHandler<ClaimInvitationCommand> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ code, inviteeUma, actor }: ClaimInvitationCommand) {
    const state = await loadInvitation(this.ctx.runner, code);
    // The invitation expires on the inviting platform's clock.
    const now = await this.ctx.now(state.invitation.platformId);
    await this.ctx.runner.run(
      streams.invitation(code),
      invitationDecider,
      { type: 'ClaimInvitation', inviteeUma, claimingPlatformId: actor.platformId, now: now.toISOString() },
      { metadata: { ...actor } },
    );
  }
}
