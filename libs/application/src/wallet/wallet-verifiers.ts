import { Inject, Injectable, Logger } from '@nestjs/common';
import { createOidcVerifier, type OidcIdentity, type OidcVerifier } from '#crypto/oidc.js';
import type { RelyingParty } from '#crypto/webauthn.js';
import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import { DomainError, invalid } from '#domain/errors.js';
import { unauthorized } from '#domain/wallet/signed-retry.js';
import { CommandRunner } from '../command-runner.js';
import { isSandboxPlatform } from '../platforms/platform-config.js';
import { APP_CONFIG, CLOCK } from '../tokens.js';

/** The fixed EMAIL_OTP code of sandbox platforms. */
export const SANDBOX_OTP = '000000';
export const INVALID_OTP = 'Invalid OTP code';

/**
 * Credential checks that depend on the platform kind and the configuration: OIDC tokens
 * (sandbox rules or signatures against the issuers' key sets), the passkey relying party,
 * and EMAIL_OTP codes.
 */
@Injectable()
export class WalletVerifiers {
  private readonly logger = new Logger('WalletAuth');
  private readonly oidcVerifiers = new Map<'sandbox' | 'production', OidcVerifier>();

  constructor(
    private readonly runner: CommandRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get relyingParty(): RelyingParty {
    return { rpId: this.config.wallet.webauthn.rpId, origins: this.config.wallet.webauthn.origins };
  }

  async isSandbox(platformId: string): Promise<boolean> {
    return isSandboxPlatform(this.runner, platformId);
  }

  /**
   * Sandbox platforms follow the sandbox token rules unless the installation runs OIDC in
   * production mode; production platforms always have token signatures verified.
   */
  async verifyOidc(
    platformId: string,
    token: string,
    options: { clientPublicKey?: string } = {},
  ): Promise<OidcIdentity> {
    const mode =
      this.config.wallet.oidcMode === 'sandbox' && (await this.isSandbox(platformId)) ? 'sandbox' : 'production';
    const result = await this.oidc(mode).verify(token, options);
    if (result.ok) return result.identity;
    if (result.code === 'INVALID_INPUT') throw invalid('INVALID_INPUT', result.reason, 'oidcToken');
    throw unauthorized(
      result.reason,
      result.code === 'ISSUER_KEYS_UNAVAILABLE' ? 'ISSUER_KEYS_UNAVAILABLE' : 'UNAUTHORIZED',
    );
  }

  /**
   * An OTP "email" for an EMAIL_OTP credential. Sandbox platforms use the fixed code and send
   * nothing; this installation has no mail transport, so production platforms are refused
   * rather than given a code nobody can receive.
   */
  async assertOtpDelivery(platformId: string): Promise<void> {
    if (!(await this.isSandbox(platformId))) {
      throw new DomainError(
        'unprocessable',
        'EMAIL_DELIVERY_UNAVAILABLE',
        'no email transport is configured; EMAIL_OTP codes can only be issued to sandbox platforms',
      );
    }
  }

  /** Called once the OTP issue is recorded (and so counted by the rate limit). */
  otpIssued(authMethodId: string): void {
    this.logger.debug(`sandbox OTP issued for ${authMethodId}; no email sent`);
  }

  async otpMatches(platformId: string, otp: string): Promise<boolean> {
    return (await this.isSandbox(platformId)) && otp === SANDBOX_OTP;
  }

  private oidc(mode: 'sandbox' | 'production'): OidcVerifier {
    let verifier = this.oidcVerifiers.get(mode);
    if (!verifier) {
      verifier = createOidcVerifier({ mode, issuers: this.config.wallet.oidcIssuers, clock: this.clock });
      this.oidcVerifiers.set(mode, verifier);
    }
    return verifier;
  }
}
