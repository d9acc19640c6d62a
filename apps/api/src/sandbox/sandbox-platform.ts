import { Logger, type INestApplication } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateApiTokenCommand,
  CreatePlatformCommand,
  type IssuedToken,
} from '#application/platforms/platform-commands.js';
import { Queries } from '#application/queries/queries.js';
import type { AppConfig } from '#config/config.js';
import { secretMatches } from '#crypto/secrets.js';

export interface SandboxCredentials {
  platformId: string;
  tokenId: string;
  clientSecret: string;
}

export const credentialsFile = (config: AppConfig) => join(config.dataDir, 'sandbox-credentials.json');

async function stillValid(queries: Queries, c: SandboxCredentials): Promise<boolean> {
  const token = await queries.tokenForAuth(c.tokenId);
  return Boolean(
    token &&
    token.status === 'ACTIVE' &&
    token.platformId === c.platformId &&
    secretMatches(c.clientSecret, token.secretHash),
  );
}

/**
 * The sandbox platform is created on first start; its credentials are written to
 * `<DATA_DIR>/sandbox-credentials.json` (mode 0600) and printed once, when created; later starts
 * print where the file is. A lost or revoked credentials file gets a fresh token on the same platform.
 */
export async function ensureSandboxPlatform(app: INestApplication, config: AppConfig): Promise<SandboxCredentials> {
  const queries = app.get(Queries);
  const commands = app.get(CommandBus);
  const file = credentialsFile(config);
  let credentials: SandboxCredentials | undefined;
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as SandboxCredentials;
    if (await stillValid(queries, saved)) credentials = saved;
  }
  if (!credentials) {
    const platforms = await queries.listPlatforms();
    const existing = platforms.data.find((p) => p.sandbox === true);
    if (existing) {
      const platformId = existing.id;
      const token: IssuedToken = await commands.execute(
        new CreateApiTokenCommand(
          { name: 'sandbox' },
          { platformId, actor: 'system', correlationId: 'sandbox-bootstrap' },
        ),
      );
      credentials = { platformId, tokenId: token.id, clientSecret: token.clientSecret };
    } else {
      const created: { platformId: string; token: IssuedToken } = await commands.execute(
        new CreatePlatformCommand({ name: 'Sandbox', sandbox: true, umaDomain: config.umaDomain }, 'system'),
      );
      credentials = {
        platformId: created.platformId,
        tokenId: created.token.id,
        clientSecret: created.token.clientSecret,
      };
    }
    writeFileSync(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  } else {
    // The secret was printed when it was created; later starts only say where it is kept.
    Logger.log(
      `sandbox platform ${credentials.platformId}, token ${credentials.tokenId}: credentials in ${file}`,
      'Sandbox',
    );
    return credentials;
  }
  const basic = Buffer.from(`${credentials.tokenId}:${credentials.clientSecret}`).toString('base64');
  Logger.log(
    [
      'sandbox credentials',
      `  platform:      ${credentials.platformId}`,
      `  token id:      ${credentials.tokenId}`,
      `  client secret: ${credentials.clientSecret}`,
      `  header:        Authorization: Basic ${basic}`,
      `  saved to:      ${file}`,
    ].join('\n'),
    'Sandbox',
  );
  return credentials;
}
