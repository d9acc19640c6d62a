import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CRYPTO_CURRENCIES, CURRENCY_CODES, type IdGenerator, publicId, streams } from '#domain/primitives.js';
import { PERMISSIONS, tokenPermissions, type Permission } from '#domain/platforms/permissions.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { hashSecret, newSecret } from '#crypto/secrets.js';
import { CommandContext, PlatformClocks } from '../command-context.js';
import { CommandRunner } from '../command-runner.js';
import type { Actor } from '../tokens.js';

export interface IssuedToken {
  id: string;
  name: string;
  permissions: Permission[];
  /** Returned once; only its hash is kept. */
  clientSecret: string;
  createdAt: string;
}

export class CreatePlatformCommand {
  constructor(
    readonly input: { name: string; sandbox: boolean; umaDomain: string },
    readonly actor: string,
  ) {}
}

export class CreateApiTokenCommand {
  constructor(
    readonly input: { name: string; permissions?: string[] },
    readonly actor: Actor,
  ) {}
}

export class RevokeApiTokenCommand {
  constructor(
    readonly tokenId: string,
    readonly actor: Actor,
  ) {}
}

/** Creates a platform with a settlement account per supported currency and its first API token. */
@CommandHandler(CreatePlatformCommand)
export class CreatePlatformHandler implements ICommandHandler<
  CreatePlatformCommand,
  { platformId: string; token: IssuedToken }
> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ input, actor }: CreatePlatformCommand) {
    const platformId = publicId('Platform', this.ctx.ids.uuid());
    // A new platform starts on real time: it has no clock stream yet.
    const now = this.ctx.clocks.base.now().toISOString();
    const metadata = { platformId, actor, correlationId: this.ctx.ids.uuid() };
    await this.ctx.runner.run(
      streams.platform(platformId),
      platformDecider,
      {
        type: 'CreatePlatform',
        platformId,
        name: input.name,
        sandbox: input.sandbox,
        umaDomain: input.umaDomain,
        settlementAccounts: CURRENCY_CODES.map((code) => ({
          accountId: publicId('InternalAccount', this.ctx.ids.uuid()),
          currency: code,
          crypto: CRYPTO_CURRENCIES.has(code),
        })),
        now,
      },
      { metadata, answersAfter: 'append' },
    );
    const token = await issueToken(
      this.ctx.runner,
      this.ctx.clocks,
      this.ctx.ids,
      platformId,
      'default',
      [...PERMISSIONS],
      {
        platformId,
        actor,
        correlationId: metadata.correlationId,
      },
    );
    return { platformId, token };
  }
}

async function issueToken(
  runner: CommandRunner,
  clocks: PlatformClocks,
  ids: IdGenerator,
  platformId: string,
  name: string,
  permissions: Permission[],
  actor: Actor,
): Promise<IssuedToken> {
  const tokenId = publicId('ApiToken', ids.uuid());
  const clientSecret = newSecret();
  const now = (await clocks.now(platformId)).toISOString();
  await runner.run(
    streams.platform(platformId),
    platformDecider,
    { type: 'CreateApiToken', tokenId, name, secretHash: hashSecret(clientSecret), permissions, now },
    { metadata: { ...actor } },
  );
  return { id: tokenId, name, permissions, clientSecret, createdAt: now };
}

@CommandHandler(CreateApiTokenCommand)
export class CreateApiTokenHandler implements ICommandHandler<CreateApiTokenCommand, IssuedToken> {
  constructor(private readonly ctx: CommandContext) {}

  execute({ input, actor }: CreateApiTokenCommand) {
    const permissions = tokenPermissions(input.permissions);
    return issueToken(this.ctx.runner, this.ctx.clocks, this.ctx.ids, actor.platformId, input.name, permissions, actor);
  }
}

@CommandHandler(RevokeApiTokenCommand)
export class RevokeApiTokenHandler implements ICommandHandler<RevokeApiTokenCommand, void> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ tokenId, actor }: RevokeApiTokenCommand) {
    await this.ctx.runner.run(
      streams.platform(actor.platformId),
      platformDecider,
      { type: 'RevokeApiToken', tokenId, now: (await this.ctx.now(actor.platformId)).toISOString() },
      { metadata: { ...actor } },
    );
  }
}
