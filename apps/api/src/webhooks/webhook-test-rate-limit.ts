import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../../../../libs/domain/src/errors.js';
import type { Actor } from '../../../../libs/application/src/tokens.js';

/**
 * A sliding-window limit per key: at most `limit` calls in any `windowMs`. In memory, so it holds
 * per process; kept in this one file so a shared limiter (e.g. @nestjs/throttler on Redis) can
 * replace it.
 */
export class SlidingWindowLimiter {
  private readonly calls = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a call; when over the limit, says how long until the oldest call leaves the window. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.now();
    const recent = (this.calls.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.calls.set(key, recent);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + this.windowMs - now) / 1000)) };
    }
    recent.push(now);
    this.calls.set(key, recent);
    // Forget keys whose calls all left the window, so the map stays as small as the active platforms.
    if (this.calls.size > 1000) {
      for (const [k, v] of this.calls) if (v[v.length - 1] <= now - this.windowMs) this.calls.delete(k);
    }
    return { allowed: true };
  }
}

export const WEBHOOK_TEST_LIMIT = 10;
export const WEBHOOK_TEST_WINDOW_MS = 60_000;

/**
 * `POST /sandbox/webhooks/test` makes the service send a request on the caller's behalf: 10 per
 * platform per minute of real time (the sandbox clock is the platform's to move, so it cannot
 * reset the limit). Over it: 429 RATE_LIMITED with Retry-After.
 */
@Injectable()
export class WebhookTestRateLimit implements CanActivate {
  private readonly limiter = new SlidingWindowLimiter(WEBHOOK_TEST_LIMIT, WEBHOOK_TEST_WINDOW_MS);

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { actor?: Actor }>();
    // The platform authentication guard runs first, so the actor is there; the address is a fallback.
    const verdict = this.limiter.take(req.actor?.platformId ?? `ip:${req.ip}`);
    if (verdict.allowed) return true;
    const { retryAfterSeconds } = verdict;
    const message = `too many test webhooks; retry after ${retryAfterSeconds} seconds`;
    throw new DomainError('rate_limited', 'RATE_LIMITED', message, { retryAfterSeconds });
  }
}
