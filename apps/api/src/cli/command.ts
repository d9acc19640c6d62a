import type { INestApplicationContext } from '@nestjs/common';
import type { ParseArgsConfig } from 'node:util';
import { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure } from '#application/infrastructure.js';
import type { Actor } from '#application/tokens.js';
import type { AppConfig } from '#config/config.js';
import { notFound } from '#domain/errors.js';
import { isPublicId, randomIds, streams } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { validationPipe } from '../http/validation.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** What a command runs with: the application (the same Nest providers the API uses) and its arguments. */
export interface CliContext {
  app: INestApplicationContext;
  infra: Infrastructure;
  config: AppConfig;
  values: OptionValues;
  positionals: string[];
}

/** What a command prints: `data` as JSON with --json, `text` otherwise; `exitCode` 1 when it did not succeed. */
export interface CliResult {
  data: unknown;
  text: () => string;
  exitCode?: number;
  /** `data` on one line with --json (a command that streams JSON lines before it). */
  compact?: boolean;
}

export interface CliCommand {
  name: string;
  /** Its arguments, for the usage text. */
  synopsis: string;
  /** One or more lines for the usage text. */
  description: string;
  options?: OptionSpecs;
  /** How many positional arguments it takes (default none). */
  positionals?: number;
  /**
   * Waits, as the API does, until the read models include what its command wrote (READ_YOUR_WRITES_TIMEOUT_MS, when
   * a worker projects); the other commands only append and return.
   */
  readYourWrites?: boolean;
  run(ctx: CliContext): Promise<CliResult>;
}

/** A command line that cannot be run as given: the usage text follows, exit status 2. */
export class UsageError extends Error {}

/** A string option's value (undefined when absent). */
export const text = (ctx: CliContext, name: string): string | undefined => {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The actor a platform-scoped command acts as: `--platform` must name an existing platform (PLATFORM_NOT_FOUND
 * otherwise, from its stream, so a platform just created counts before any projector ran). Every query and command
 * then gets this platform id, as the API gets the id of the token's platform: another platform's resources are not
 * found.
 */
export async function platformActor(ctx: CliContext, command: string): Promise<Actor> {
  const platformId = text(ctx, 'platform');
  if (!platformId || !isPublicId('Platform', platformId))
    throw new UsageError(`${command} needs --platform Platform:<uuid>`);
  const { state } = await ctx.app.get(CommandRunner).load(streams.platform(platformId), platformDecider);
  if (!state.exists) throw notFound('PLATFORM', platformId);
  return { platformId, actor: 'cli', correlationId: randomIds.uuid() };
}

export const platformOption: OptionSpecs = { platform: { type: 'string' } };

/** `platformCustomerId` → `platform-customer-id`: the CLI spelling of an API query parameter. */
export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Checks `input` as the API checks a request's query or body for `dto`: the same validation pipe, so the same
 * conversions and the same INVALID_INPUT field errors.
 */
export async function asRequest<T extends object>(
  dto: new () => T,
  input: Record<string, unknown>,
  type: 'query' | 'body',
): Promise<T> {
  return (await (pipe ??= validationPipe()).transform(input, { type, metatype: dto })) as T;
}
let pipe: ReturnType<typeof validationPipe> | undefined;
