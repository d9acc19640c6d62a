import type { Request, Response } from 'express';
import type { SignedRetryOutcome } from '#application/wallet/signed-retry.service.js';

/** The two signed-retry headers as received (absent or non-string values are treated as missing). */
export function signedRetryHeaders(req: Request): { signature?: string; requestId?: string } {
  const signature = req.headers['service-wallet-signature'];
  const requestId = req.headers['request-id'];
  return {
    signature: typeof signature === 'string' ? signature : undefined,
    requestId: typeof requestId === 'string' ? requestId : undefined,
  };
}

const CHALLENGE = 'signedRetryChallenge';

/** Answers step 1 of a signed retry: 202 with the challenge the client must stamp. */
export function respondChallenge(res: Response, outcome: Extract<SignedRetryOutcome, { kind: 'challenge' }>) {
  res.status(202);
  res.locals[CHALLENGE] = true;
  return outcome.challenge;
}

/** Whether the handler answered with a signed-retry challenge (the Idempotency-Key is not spent on it). */
export const isChallenge = (res: Response): boolean => res.locals[CHALLENGE] === true;
