import { cardSpendingDecline, type SpendingControls, type SpendingDeclineReason } from '#domain/cards/card-spending.js';
import type { ExistingCard, Merchant } from '#domain/cards/card-types.js';
import { streams } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { CommandRunner } from '../command-runner.js';

/** The platform's default spending controls (its configuration's `cardSpendingControls`), null when none is set. */
export async function platformCardSpendingControls(
  runner: CommandRunner,
  platformId: string,
): Promise<SpendingControls | null> {
  const { state } = await runner.load(streams.platform(platformId), platformDecider);
  return state.cardSpendingControls ?? null;
}

/**
 * The spending controls' check before a hold is placed (a clear decline holds no money), with the platform's default
 * that the authorization's record carries to the card decider, which checks again when it records the authorization.
 */
export async function spendingPreCheck(
  runner: CommandRunner,
  state: ExistingCard,
  request: { amount: bigint; merchant: Merchant; now: string; authorized?: bigint },
): Promise<{ defaultSpendingControls: SpendingControls | null; declineReason?: SpendingDeclineReason }> {
  const defaultSpendingControls = await platformCardSpendingControls(runner, state.platformId);
  const declineReason = cardSpendingDecline(state, { ...request, defaultSpendingControls });
  return { defaultSpendingControls, ...(declineReason ? { declineReason } : {}) };
}
