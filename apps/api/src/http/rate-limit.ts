import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import type { CanActivate, ExecutionContext, OnModuleDestroy } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import ipaddr from 'ipaddr.js';
import type { RateLimits } from '#config/config.js';
import { clientAddressOf, type TrustedProxies } from '#net/trusted-proxies.js';
import { ApiError } from './errors.js';
import type { HttpRequest } from './platform.js';
import type { RateLimitStorage } from './rate-limit-storage.js';

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
export const RATE_LIMITS = Symbol('RATE_LIMITS');
/** The configured {@link TrustedProxies} (`TRUSTED_PROXIES`). */
export const TRUSTED_PROXIES = Symbol('TRUSTED_PROXIES');
const POLICY = 'rateLimitPolicy';
const AUTH_TOKEN = 'auth-failures-token';
const AUTH_ADDRESS = 'auth-failures-address';

/**
 * Throttler-style policies by name: at most `limit` requests per platform (per client address for unauthenticated
 * requests, or always with `perAddress`) per `ttlMs`.
 */
export type RateLimitPolicies = Record<string, { limit: number; ttlMs: number; perAddress?: boolean }>;
export const RATE_LIMIT_POLICIES = Symbol('RATE_LIMIT_POLICIES');
export const WEBHOOK_TEST_POLICY = 'webhook-test';
/** Agent device-code redemption and status: per client address (redemption needs no credentials). */
export const DEVICE_CODE_POLICY = 'device-codes';

export const policiesOf = (limits: RateLimits): RateLimitPolicies => ({
  [WEBHOOK_TEST_POLICY]: { limit: limits.webhookTests, ttlMs: limits.webhookTestWindowSeconds * 1000 },
  [DEVICE_CODE_POLICY]: {
    limit: limits.deviceCodes,
    ttlMs: limits.deviceCodeWindowSeconds * 1000,
    perAddress: true,
  },
});

/** Puts a route under a named policy, enforced by {@link RateLimitGuard}. */
export const RateLimit = (policy: string) => SetMetadata(POLICY, policy);

/** 429 in the error shape with `Retry-After` in whole seconds (at least 1). */
export const rateLimited = (retryAfterSeconds: number, message: string) => {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const body = {
    status: 429,
    code: 'RATE_LIMITED',
    message: `${message}; retry after ${seconds} seconds`,
    details: { retryAfterSeconds: seconds },
  };
  return new ApiError(body, { 'Retry-After': String(seconds) });
};

/**
 * The caller's address as limits count it: the peer's, or behind a trusted proxy the client's it forwards
 * ({@link clientAddressOf}, the same rule on both HTTP adapters); IPv4-mapped IPv6 as IPv4, other IPv6 by its /64.
 */
export function clientAddress(req: HttpRequest, proxies: TrustedProxies): string {
  const raw = clientAddressOf(req.socket?.remoteAddress ?? req.ip, req.headers, proxies) ?? '';
  if (!ipaddr.isValid(raw)) return raw || 'unknown';
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/**
 * Failed Basic authentications, counted per token id and per client address. Only wrong
 * credentials count (a missing header cannot guess a secret). The secret is checked first: the
 * right one always passes, so knowing a token id (or sharing an address) cannot lock its owner
 * out; once either count passes its limit, a wrong secret for that token id or from that address
 * is answered 429 instead of 401 until the block ends. Secrets carry 256 bits, so the limit
 * does not protect them by slowing guesses; it keeps guessers' noise bounded and visible.
 */
@Injectable()
export class AuthFailureLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
  ) {}

  /** Counts a failure; throws 429 when a limit is passed or was already. */
  async recordFailure(tokenId: string, address: string): Promise<void> {
    const windowMs = this.limits.authWindowSeconds * 1000;
    const results = await Promise.all([
      this.storage.increment(tokenId, windowMs, this.limits.authFailuresPerToken, windowMs, AUTH_TOKEN),
      this.storage.increment(address, windowMs, this.limits.authFailuresPerAddress, windowMs, AUTH_ADDRESS),
    ]);
    const blocked = results.filter((r) => r.isBlocked);
    if (blocked.length === 0) return;
    throw rateLimited(Math.max(...blocked.map((r) => r.timeToBlockExpire)), 'too many failed authentications');
  }
}

/**
 * Enforces the route's {@link RateLimit} policy per platform (it runs after authentication),
 * through the same throttler storage, answering 429 in the error shape.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
    @Inject(RATE_LIMIT_POLICIES) private readonly policies: RateLimitPolicies,
    @Inject(TRUSTED_PROXIES) private readonly proxies: TrustedProxies,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.getAllAndOverride<string | undefined>(POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const policy = name ? this.policies[name] : undefined;
    if (!name || !policy) return true;
    const req = context.switchToHttp().getRequest<HttpRequest & { actor?: { platformId: string } }>();
    const platformId = policy.perAddress ? undefined : req.actor?.platformId;
    const tracker = platformId ?? clientAddress(req, this.proxies);
    const hit = await this.storage.increment(tracker, policy.ttlMs, policy.limit, policy.ttlMs, name);
    if (hit.isBlocked) throw rateLimited(hit.timeToBlockExpire, 'too many requests');
    return true;
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
