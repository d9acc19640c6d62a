import { Inject, Injectable, type ExecutionContext, type OnModuleDestroy } from '@nestjs/common';
import { ThrottlerGuard, normalizeIp, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';
import type { RateLimits } from '../../../../libs/config/src/config.js';
import { ApiError } from './errors.js';
import type { RateLimitStorage } from './rate-limit-storage.js';

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
export const RATE_LIMITS = Symbol('RATE_LIMITS');
/** The @nestjs/throttler policy of `POST /sandbox/webhooks/test`, per platform. */
export const WEBHOOK_TEST_THROTTLER = 'webhook-test';
const AUTH_TOKEN = 'auth-failures-token';
const AUTH_ADDRESS = 'auth-failures-address';

/** 429 in the error shape with `Retry-After` in whole seconds (at least 1). */
export const rateLimited = (retryAfterSeconds: number, message: string) => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError({ status: 429, code: 'RATE_LIMITED', message: `${message}; retry after ${seconds} seconds`, details: { retryAfterSeconds: seconds } }, { 'Retry-After': String(seconds) });
};

/** The caller's address as limits count it (IPv6 by /64, as the throttler does). */
export const clientAddress = (req: Request) => normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/**
 * Failed Basic authentications, counted per token id and per client address. Only wrong
 * credentials count (a missing header cannot guess a secret); once either count passes its
 * limit, every attempt for that token id or from that address is refused with 429 before the
 * secret is checked, so a blocked guesser learns nothing more until the window passes.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(@Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage, @Inject(RATE_LIMITS) private readonly limits: RateLimits) {}

  async assertAllowed(tokenId: string, address: string): Promise<void> {
    const waits = await Promise.all([this.storage.blockedFor(tokenId, AUTH_TOKEN), this.storage.blockedFor(address, AUTH_ADDRESS)]);
    const wait = Math.max(...waits);
    if (wait > 0) throw rateLimited(wait, 'too many failed authentications');
  }

  /** Counts a failure; throws 429 when it passes a limit. */
  async recordFailure(tokenId: string, address: string): Promise<void> {
    const windowMs = this.limits.authWindowSeconds * 1000;
    const results = await Promise.all([
      this.storage.increment(tokenId, windowMs, this.limits.authFailuresPerToken, windowMs, AUTH_TOKEN),
      this.storage.increment(address, windowMs, this.limits.authFailuresPerAddress, windowMs, AUTH_ADDRESS),
    ]);
    const blocked = results.filter((r) => r.isBlocked);
    if (blocked.length > 0) throw rateLimited(Math.max(...blocked.map((r) => r.timeToBlockExpire)), 'too many failed authentications');
  }
}

/**
 * The @nestjs/throttler guard for the routes that carry a throttler policy: counted per
 * platform (it runs after authentication), answering 429 in the error shape.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return (req as { actor?: { platformId: string } }).actor?.platformId ?? clientAddress(req as Request);
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimited(detail.timeToBlockExpire, 'too many requests');
  }
}

/** Closes the limits' Redis connection with the application. */
@Injectable()
export class RateLimitStorageCloser implements OnModuleDestroy {
  constructor(@Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage) {}
  async onModuleDestroy(): Promise<void> {
    await this.storage.close();
  }
}
