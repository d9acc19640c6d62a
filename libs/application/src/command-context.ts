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

/**
 * Crash points for crash tests: with `FAULT_INJECT=<name>` in its environment the process kills
 * itself (SIGKILL: no cleanup, nothing flushed) when it reaches the point of that name, so a test
 * can stop a real process exactly between two appends. Unset, a point does nothing.
 */
const FAULT_INJECT = process.env.FAULT_INJECT;

export type FaultPoint =
  /** A signed retry's requestId was consumed; the change it authorizes is not applied yet. */
  | 'after-consume'
  /** A bulk import created the customers of the window holding its middle row; their outcomes are not recorded yet. */
  | 'bulk-import-halfway'
  /** A bank rail wrote an initiation file into its outbox; the file is not yet recorded as written. */
  | 'rail-file-written'
  /** A bank rail recorded an inbox file and its effects; no payment has moved yet. */
  | 'rail-inbox-recorded'
  /** A bank rail applied the first effect of an inbox file; the others and the file's end are not recorded. */
  | 'rail-inbox-halfway'
  /** A request under an Idempotency-Key has had its effect; its answer is not yet kept under the key. */
  | 'before-key-answer';

export function faultPoint(name: FaultPoint): void {
  if (FAULT_INJECT === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * Test hooks of in-process tests: a step the test makes slow by setting it (a promise it settles when it wants),
 * to reach a path that only a slow service takes. Unset, a step costs nothing.
 */
export const testHooks: {
  /** At the platform-decision step of an authorization whose card rules approved it. */
  slowDecision?: (authorizationId: string) => Promise<void>;
} = {};

export async function slowDecisionStep(authorizationId: string): Promise<void> {
  if (testHooks.slowDecision) await testHooks.slowDecision(authorizationId);
}
