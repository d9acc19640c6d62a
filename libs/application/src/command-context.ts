import { Inject, Injectable } from '@nestjs/common';
import type { IdGenerator } from '#domain/ids.js';
import { CommandRunner } from './command-runner.js';
import { PlatformClocks } from './platforms/platform-clocks.js';
import { IDS } from './tokens.js';

/**
 * What every command handler works with: the process's command runner, the platforms' clocks and the id generator.
 * Provided once by the global application module, so a handler takes this one dependency instead of the three.
 */
@Injectable()
export class CommandContext {
  constructor(
    readonly runner: CommandRunner,
    readonly clocks: PlatformClocks,
    @Inject(IDS) readonly ids: IdGenerator,
  ) {}

  /** The platform's current time. */
  now(platformId: string): Promise<Date> {
    return this.clocks.now(platformId);
  }

  /** The platform's current time as ISO 8601 text, as events record it. */
  async nowIso(platformId: string): Promise<string> {
    return (await this.clocks.now(platformId)).toISOString();
  }
}
