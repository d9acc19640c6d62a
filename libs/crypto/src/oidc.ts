import { createHash } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type RemoteJWKSetOptions } from 'jose';
import type { Clock } from '#domain/clock.js';

/**
 * OIDC tokens for OAUTH credentials. Production verifies the signature against each supported
 * issuer's remote key set; the sandbox accepts JWT-shaped tokens with a dummy signature. Both
 * run the same claim checks, each failing with its own `reason`.
 */
export type OidcMode = 'production' | 'sandbox';

export interface OidcVerifierConfig {
  mode: OidcMode;
  /** Supported issuers mapped to their JWKS URIs (the URIs are not used in the sandbox). */
  issuers: Record<string, string>;
  clock: Clock;
  /** Oldest accepted `iat`, in seconds before the request. */
  maxTokenAgeSeconds?: number;
  /** Extra allowance for clock skew; defaults to 5 in the sandbox and 0 in production. */
  clockSkewSeconds?: number;
  jwks?: RemoteJWKSetOptions;
}

export interface OidcIdentity {
  iss: string;
  sub: string;
  /** The single audience, whether the token carried it as a string or a one-element array. */
  aud: string;
  iat: number;
  exp: number;
  email?: string;
  nonce?: string;
}

export type OidcFailureCode = 'INVALID_INPUT' | 'UNAUTHORIZED' | 'ISSUER_KEYS_UNAVAILABLE';
export type OidcResult = { ok: true; identity: OidcIdentity } | { ok: false; code: OidcFailureCode; reason: string };

export const OIDC_REASONS = {
  malformed: 'oidcToken is not a JWT (three base64url segments of JSON)',
  issuer: 'OIDC token iss is not a supported issuer',
  signature: 'OIDC token signature is invalid',
  keysUnavailable: 'the key set of the OIDC issuer could not be fetched',
  audience: 'OIDC token aud must be a non-empty string or a one-element string array',
  subject: 'OIDC token sub is missing',
  iatMissing: 'OIDC token iat is missing or not numeric',
  iatTooOld: 'OIDC token iat is too old',
  iatInFuture: 'OIDC token iat is in the future',
  notYetValid: 'OIDC token nbf is in the future',
  expMissing: 'OIDC token exp is missing or not numeric',
  expired: 'OIDC token has expired',
  nonce: 'OIDC token nonce is not the sha256 of clientPublicKey',
} as const;

// Signature algorithms of public OIDC providers; symmetric and `none` are never accepted.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const SEGMENT = /^[A-Za-z0-9_-]+$/;
// An `iat` slightly ahead of our clock is drift, not forgery.
const FUTURE_IAT_TOLERANCE_SECONDS = 5;
// jose's own time checks are replaced by ours, which name the failed claim.
const CLAIM_ERRORS = new Set(['ERR_JWT_EXPIRED', 'ERR_JWT_CLAIM_VALIDATION_FAILED']);
const SIGNATURE_ERRORS = new Set([
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
]);

/** The `nonce` a token must carry on verify: lowercase hex sha256 of the exact `clientPublicKey` string. */
export function oidcNonceFor(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}

const fail = (code: OidcFailureCode, reason: string): OidcResult => ({ ok: false, code, reason });

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Header and claims of a compact JWT, or undefined when it is not one. */
export function decodeJwt(
  token: unknown,
): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  if (typeof token !== 'string') return undefined;
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((s) => SEGMENT.test(s))) return undefined;
  const header = decodeSegment(segments[0]);
  const claims = decodeSegment(segments[1]);
  return header && claims ? { header, claims } : undefined;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export class OidcVerifier {
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  private readonly maxAge: number;
  private readonly skew: number;

  constructor(private readonly config: OidcVerifierConfig) {
    this.maxAge = config.maxTokenAgeSeconds ?? 60;
    this.skew = config.clockSkewSeconds ?? (config.mode === 'sandbox' ? 5 : 0);
  }

  /**
   * Verifies `token`. With `clientPublicKey` (credential verify) the `nonce` must bind it; on
   * credential creation there is none. Matching iss/sub/aud to a stored credential is the wallet's job.
   */
  async verify(token: unknown, options: { clientPublicKey?: string } = {}): Promise<OidcResult> {
    const decoded = decodeJwt(token);
    if (!decoded) return fail('INVALID_INPUT', OIDC_REASONS.malformed);
    const { claims } = decoded;
    const iss = claims.iss;
    if (typeof iss !== 'string' || !Object.hasOwn(this.config.issuers, iss))
      return fail('UNAUTHORIZED', OIDC_REASONS.issuer);
    const now = this.config.clock.now();

    if (this.config.mode === 'production') {
      const signatureFailure = await this.checkSignature(token as string, iss, now);
      if (signatureFailure) return signatureFailure;
    }

    const nowSeconds = now.getTime() / 1000;
    const aud = Array.isArray(claims.aud) && claims.aud.length === 1 ? claims.aud[0] : claims.aud;
    if (typeof aud !== 'string' || aud.length === 0) return fail('UNAUTHORIZED', OIDC_REASONS.audience);
    if (typeof claims.sub !== 'string' || claims.sub.length === 0) return fail('UNAUTHORIZED', OIDC_REASONS.subject);
    if (!isNumber(claims.iat)) return fail('UNAUTHORIZED', OIDC_REASONS.iatMissing);
    if (nowSeconds - claims.iat > this.maxAge + this.skew) return fail('UNAUTHORIZED', OIDC_REASONS.iatTooOld);
    if (claims.iat - nowSeconds > Math.max(this.skew, FUTURE_IAT_TOLERANCE_SECONDS))
      return fail('UNAUTHORIZED', OIDC_REASONS.iatInFuture);
    if (claims.nbf !== undefined && (!isNumber(claims.nbf) || claims.nbf - nowSeconds > this.skew))
      return fail('UNAUTHORIZED', OIDC_REASONS.notYetValid);
    if (!isNumber(claims.exp)) return fail('UNAUTHORIZED', OIDC_REASONS.expMissing);
    if (claims.exp <= nowSeconds) return fail('UNAUTHORIZED', OIDC_REASONS.expired);
    if (options.clientPublicKey !== undefined && claims.nonce !== oidcNonceFor(options.clientPublicKey)) {
      return fail('UNAUTHORIZED', OIDC_REASONS.nonce);
    }
    return {
      ok: true,
      identity: {
        iss,
        sub: claims.sub,
        aud,
        iat: claims.iat,
        exp: claims.exp,
        ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
        ...(typeof claims.nonce === 'string' ? { nonce: claims.nonce } : {}),
      },
    };
  }

  private async checkSignature(token: string, iss: string, now: Date): Promise<OidcResult | undefined> {
    try {
      await jwtVerify(token, this.keySet(iss), { algorithms: ALGORITHMS, currentDate: now });
      return undefined;
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (CLAIM_ERRORS.has(code)) return undefined;
      if (SIGNATURE_ERRORS.has(code)) return fail('UNAUTHORIZED', OIDC_REASONS.signature);
      // Timeouts, unreachable hosts, non-200 answers and unparseable key sets: the token was not judged.
      return fail('ISSUER_KEYS_UNAVAILABLE', OIDC_REASONS.keysUnavailable);
    }
  }

  private keySet(iss: string): ReturnType<typeof createRemoteJWKSet> {
    let set = this.keySets.get(iss);
    if (!set) {
      set = createRemoteJWKSet(new URL(this.config.issuers[iss]), { timeoutDuration: 5000, ...this.config.jwks });
      this.keySets.set(iss, set);
    }
    return set;
  }
}

export const createOidcVerifier = (config: OidcVerifierConfig): OidcVerifier => new OidcVerifier(config);
