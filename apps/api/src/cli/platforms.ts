import { CommandBus } from '@nestjs/cqrs';
import {
  CreateApiTokenCommand,
  CreatePlatformCommand,
  type IssuedToken,
} from '#application/platforms/platform-commands.js';
import { Queries } from '#application/queries/queries.js';
import { platformActor, platformOption, text, UsageError, type CliCommand } from './command.js';
import { fields, table } from './format.js';

const credentials = (c: { platformId: string; tokenId: string; clientSecret: string }) => () =>
  `${fields([
    ['platform', c.platformId],
    ['token id', c.tokenId],
    ['client secret', c.clientSecret],
  ])}\n(the secret is shown this once)`;

/** Platforms and their API tokens. */
export const platformCommands: CliCommand[] = [
  {
    name: 'platform:create',
    synopsis: '--name NAME [--sandbox] [--uma-domain DOMAIN]',
    description: 'creates a platform with settlement accounts and its first API token (secret printed once)',
    options: {
      name: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      'uma-domain': { type: 'string' },
    },
    async run(ctx) {
      const name = text(ctx, 'name');
      if (!name) throw new UsageError('platform:create needs --name');
      const created: { platformId: string; token: IssuedToken } = await ctx.app
        .get(CommandBus)
        .execute(
          new CreatePlatformCommand(
            { name, sandbox: ctx.values.sandbox === true, umaDomain: text(ctx, 'uma-domain') ?? ctx.config.umaDomain },
            'cli',
          ),
        );
      const data = {
        platformId: created.platformId,
        tokenId: created.token.id,
        clientSecret: created.token.clientSecret,
      };
      return { data, text: credentials(data) };
    },
  },
  {
    name: 'token:create',
    synopsis: '--platform Platform:<uuid> [--name NAME]',
    description: 'creates another API token for a platform (secret printed once)',
    options: { ...platformOption, name: { type: 'string' } },
    async run(ctx) {
      const actor = await platformActor(ctx, 'token:create');
      const token: IssuedToken = await ctx.app
        .get(CommandBus)
        .execute(new CreateApiTokenCommand({ name: text(ctx, 'name') ?? 'cli' }, actor));
      const data = { platformId: actor.platformId, tokenId: token.id, clientSecret: token.clientSecret };
      return { data, text: credentials(data) };
    },
  },
  {
    name: 'platforms:list',
    synopsis: '',
    description: 'lists platforms known to the read models',
    async run(ctx) {
      const page = await ctx.app.get(Queries).listPlatforms();
      return {
        data: page.data,
        text: () =>
          table(
            ['platform', 'name', 'sandbox', 'created'],
            page.data.map((p) => [p.id, p.name as string, p.sandbox as boolean, p.createdAt as string]),
          ),
      };
    },
  },
];
