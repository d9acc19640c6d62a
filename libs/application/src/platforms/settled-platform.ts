import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/ids.js';
import { platformDecider, type PlatformState } from '#domain/platform/platform.js';
import type { CommandRunner } from '../command-runner.js';

/**
 * The platform as its creation left it, for what that one append fixes for good: whether it is a sandbox platform and
 * its settlement accounts. A platform this process has seen is not read again (`CommandRunner.loadSettled`).
 */
export function settledPlatform(runner: CommandRunner, platformId: string): Promise<PlatformState> {
  return runner.loadSettled(streams.platform(platformId), platformDecider, (s) => s.exists);
}

/** The platform's settlement account in `code`; 400 UNSUPPORTED_CURRENCY when it has none. */
export async function settlementAccountOf(runner: CommandRunner, platformId: string, code: string): Promise<string> {
  const state = await settledPlatform(runner, platformId);
  const id = state.settlementAccounts.get(code);
  if (!id)
    throw new DomainError('invalid', 'UNSUPPORTED_CURRENCY', `the platform has no settlement account in ${code}`);
  return id;
}

export async function isSandboxPlatform(runner: CommandRunner, platformId: string): Promise<boolean> {
  return (await settledPlatform(runner, platformId)).sandbox === true;
}
