/** OpenAPI prose of the sandbox-clock routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of sandbox-clock.controller.ts, by handler. */
export const SANDBOX_CLOCK_TEXT = {
  get: 'The platform’s own time: real time plus its sandbox offset (always 0 on production platforms).',
  advance:
    'Moves this sandbox platform’s clock forward by `seconds` or `milliseconds` (exactly one, at ' +
    'most a year); other platforms keep their own time. Every process follows the persisted ' +
    'offset. This platform’s challenges, sessions, quotes, lookups and invitations expire on ' +
    'it, and its timers (quote expiries, delayed sandbox outcomes, card provisioning and ' +
    'authorization expiry, webhook retries) that became due run at once (promotedJobs ' +
    'counts them); poll the resources for their new status.',
};
