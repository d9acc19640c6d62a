import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { issueSessionKey } from '#crypto/session-keys.js';
import { verifyPasskeyAuthentication, type PasskeyAssertion } from '#crypto/webauthn.js';
import type { AppConfig } from '#config/config.js';
import { invalid, notFound } from '#domain/errors.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import { unauthorized } from '#domain/wallet/signed-retry.js';
import type { SessionProof, WalletAuthCommand } from '#domain/wallet/wallet-auth.js';
import { requireSession, type AuthMethodRecord, type AuthMethodType } from '#domain/wallet/wallet-auth-state.js';
import { toAuthSessionView, type AuthSessionView } from '#domain/wallet/wallet-views.js';
import { APP_CONFIG, IDS, type Actor } from '../tokens.js';
import { loadCredential } from './credential-commands.js';
import {
  SignedRetryService,
  type ChallengeSpec,
  type SignedRequest,
  type SignedResult,
} from './signed-retry.service.js';
import { WalletAccounts, type ProvisionedWallet } from './wallet-accounts.js';
import { WalletQueries } from './wallet-queries.js';
import { INVALID_OTP, WalletVerifiers } from './wallet-verifiers.js';
import { PlatformClocks } from '../command-context.js';
import { effectId } from '../idempotency/effect-ids.js';

export interface VerifyCredentialInput {
  type?: AuthMethodType;
  otp?: string;
  oidcToken?: string;
  clientPublicKey?: string;
  assertion?: PasskeyAssertion;
}

export class VerifyCredentialCommand {
  constructor(
    readonly authMethodId: string,
    readonly input: VerifyCredentialInput,
    readonly requestId: string | undefined,
    readonly actor: Actor,
  ) {}
}
export class RevokeSessionCommand {
  constructor(
    readonly sessionId: string,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}
export class RefreshSessionCommand {
  constructor(
    readonly sessionId: string,
    readonly clientPublicKey: string,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}

/** A session-issuing response: the session plus its signing key, sealed to the client and returned once. */
export type IssuedAuthSession = AuthSessionView & { encryptedSessionSigningKey: string };

const required = <T>(value: T | undefined, field: string, type: string): T => {
  if (value === undefined || value === '')
    throw invalid('INVALID_INPUT', `${field} is required to verify an ${type} credential`, field);
  return value;
};

/** A new session's expiry (the configured lifetime) and the `now` it counts from, on the platform's clock. */
type KeyedSessionCommand =
  Extract<WalletAuthCommand, { type: 'IssueSession' | 'RefreshSession' }> extends infer C
    ? C extends unknown
      ? Omit<C, 'publicKey' | 'expiresAt' | 'now'>
      : never
    : never;

/**
 * Issues or refreshes session `command.sessionId` with a new signing key for `clientPublicKey` and the configured
 * lifetime; the session's view with its signing key, encrypted to the client.
 */
async function keySession(
  { wallets, clocks, config }: { wallets: WalletAccounts; clocks: PlatformClocks; config: AppConfig },
  accountId: string,
  clientPublicKey: string,
  command: KeyedSessionCommand,
  actor: Actor,
): Promise<IssuedAuthSession> {
  const key = await issueSessionKey(clientPublicKey);
  const now = await clocks.now(actor.platformId);
  const expiresAt = new Date(now.getTime() + config.wallet.sessionLifetimeSeconds * 1000).toISOString();
  const keyed = { ...command, publicKey: key.publicKey, expiresAt, now: now.toISOString() };
  const { state } = await wallets.decide(accountId, keyed, actor);
  return {
    ...toAuthSessionView(state, requireSession(state, command.sessionId)),
    encryptedSessionSigningKey: key.encryptedSessionSigningKey,
  };
}

/** A session of the caller's platform with its provisioned wallet, or 404. */
async function loadSession(
  queries: WalletQueries,
  wallets: WalletAccounts,
  sessionId: string,
  actor: Actor,
): Promise<ProvisionedWallet> {
  const doc = await queries.session(actor.platformId, sessionId);
  const wallet = await wallets.find(doc.accountId, actor);
  if (!wallet?.sessions.has(sessionId)) throw notFound('SESSION', sessionId);
  return wallet;
}

/**
 * POST /auth/credentials/{id}/verify: checks the credential's proof (OTP, OIDC token or passkey
 * assertion), then issues a session whose fresh signing key is sealed to the client's key.
 */
@CommandHandler(VerifyCredentialCommand)
export class VerifyCredentialHandler implements ICommandHandler<VerifyCredentialCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly queries: WalletQueries,
    private readonly verifiers: WalletVerifiers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clocks: PlatformClocks,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async execute({ authMethodId, input, requestId, actor }: VerifyCredentialCommand): Promise<IssuedAuthSession> {
    const { wallet, method } = await loadCredential(this.queries, this.wallets, authMethodId, actor);
    if (input.type !== undefined && input.type !== method.type)
      throw invalid('INVALID_INPUT', `credential ${authMethodId} is of type ${method.type}`, 'type');
    const { proof, clientPublicKey } = await this.proofFor(wallet, method, input, requestId, actor);
    const sessionId = publicId('Session', effectId(actor, this.ids));
    const command = { type: 'IssueSession' as const, sessionId, authMethodId, proof };
    const deps = { wallets: this.wallets, clocks: this.clocks, config: this.config };
    return keySession(deps, wallet.accountId, clientPublicKey, command, actor);
  }

  private async proofFor(
    wallet: ProvisionedWallet,
    method: AuthMethodRecord,
    input: VerifyCredentialInput,
    requestId: string | undefined,
    actor: Actor,
  ): Promise<{ proof: SessionProof; clientPublicKey: string }> {
    switch (method.type) {
      case 'EMAIL_OTP': {
        const otp = required(input.otp, 'otp', method.type);
        const clientPublicKey = required(input.clientPublicKey, 'clientPublicKey', method.type);
        if (!(await this.verifiers.otpMatches(actor.platformId, otp))) {
          // Counted in the wallet stream; past the limit this answers 429 instead of 401.
          await this.wallets.decide(
            wallet.accountId,
            { type: 'RecordOtpFailure', authMethodId: method.id },
            actor,
            'append',
          );
          throw unauthorized(INVALID_OTP);
        }
        return { proof: { type: 'EMAIL_OTP' }, clientPublicKey };
      }
      case 'OAUTH': {
        const token = required(input.oidcToken, 'oidcToken', method.type);
        const clientPublicKey = required(input.clientPublicKey, 'clientPublicKey', method.type);
        const identity = await this.verifiers.verifyOidc(actor.platformId, token, { clientPublicKey });
        return {
          proof: { type: 'OAUTH', oauth: { iss: identity.iss, sub: identity.sub, aud: identity.aud } },
          clientPublicKey,
        };
      }
      case 'PASSKEY': {
        const assertion = required(input.assertion, 'assertion', method.type);
        // The key to seal to was bound when the challenge was issued.
        if (input.clientPublicKey !== undefined)
          throw invalid(
            'INVALID_INPUT',
            'a PASSKEY verify takes no clientPublicKey: it was given on /challenge',
            'clientPublicKey',
          );
        if (!requestId)
          throw unauthorized('a PASSKEY verify needs the Request-Id header of its challenge', 'REQUEST_ID_MISSING');
        const challenge = wallet.passkeyChallenges.get(requestId);
        if (!challenge || challenge.authMethodId !== method.id)
          throw unauthorized('requestId is not a passkey challenge of this credential');
        const verified = await verifyPasskeyAuthentication({
          assertion,
          expectedChallenge: challenge.challenge,
          relyingParty: this.verifiers.relyingParty,
          credential: method.passkey!,
        });
        if (!verified.ok) throw unauthorized(`passkey assertion refused: ${verified.reason}`);
        return {
          proof: { type: 'PASSKEY', requestId, credentialId: verified.credentialId, newCounter: verified.newCounter },
          clientPublicKey: challenge.clientPublicKey,
        };
      }
    }
  }
}

/** A signed retry on a session of the caller's platform: step 1's challenge, or the session's wallet and proof. */
async function signedOnSession(
  deps: { queries: WalletQueries; wallets: WalletAccounts; signedRetry: SignedRetryService },
  sessionId: string,
  intent: ChallengeSpec['intent'],
  signed: SignedRequest,
  actor: Actor,
) {
  const wallet = await loadSession(deps.queries, deps.wallets, sessionId, actor);
  const step = await deps.signedRetry.step(wallet.accountId, { intent, targetId: sessionId }, signed, actor);
  return step.kind === 'challenge' ? step : { ...step, wallet };
}

/** DELETE /auth/sessions/{id}: a signed retry; step 1 names the type of the credential that issued the session. */
@CommandHandler(RevokeSessionCommand)
export class RevokeSessionHandler implements ICommandHandler<RevokeSessionCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly queries: WalletQueries,
    private readonly signedRetry: SignedRetryService,
  ) {}

  async execute({ sessionId, signed, actor }: RevokeSessionCommand): Promise<SignedResult<undefined>> {
    const deps = { queries: this.queries, wallets: this.wallets, signedRetry: this.signedRetry };
    const step = await signedOnSession(deps, sessionId, 'REVOKE_SESSION', signed, actor);
    if (step.kind === 'challenge') return step;
    const command = { type: 'RevokeSession' as const, sessionId, signedRetry: step.proof };
    await this.wallets.decide(step.wallet.accountId, command, actor);
    return { kind: 'done', result: undefined };
  }
}

/**
 * POST /auth/sessions/{id}/refresh: a signed retry whose payload binds the new clientPublicKey;
 * the active session gets a fresh signing key (the old one stops working) and a new expiry.
 */
@CommandHandler(RefreshSessionCommand)
export class RefreshSessionHandler implements ICommandHandler<RefreshSessionCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly queries: WalletQueries,
    private readonly signedRetry: SignedRetryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clocks: PlatformClocks,
  ) {}

  async execute({
    sessionId,
    clientPublicKey,
    signed,
    actor,
  }: RefreshSessionCommand): Promise<SignedResult<IssuedAuthSession>> {
    const deps = { queries: this.queries, wallets: this.wallets, signedRetry: this.signedRetry };
    const step = await signedOnSession(deps, sessionId, 'REFRESH_SESSION', signed, actor);
    if (step.kind === 'challenge') return step;
    const command = { type: 'RefreshSession' as const, sessionId, signedRetry: step.proof };
    const keying = { wallets: this.wallets, clocks: this.clocks, config: this.config };
    return { kind: 'done', result: await keySession(keying, step.wallet.accountId, clientPublicKey, command, actor) };
  }
}
