import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { verifyPasskeyRegistration, type PasskeyAttestation } from '#crypto/webauthn.js';
import { passkeyCredentialKey } from '#domain/claims/claim.js';
import { customerDecider } from '#domain/customers/customer.js';
import { invalid, notFound } from '#domain/errors.js';
import { publicId, streams, type IdGenerator } from '#domain/primitives.js';
import { unauthorized, type SignedRetryProof } from '#domain/wallet/signed-retry.js';
import type { NewAuthMethod } from '#domain/wallet/wallet-auth.js';
import {
  isAuthMethodActive,
  requiresSignedRetryToAddAuthMethod,
  type AuthMethodRecord,
  type AuthMethodType,
  requireAuthMethod,
} from '#domain/wallet/wallet-auth-state.js';
import { toAuthMethodView, type AuthMethodView } from '#domain/wallet/wallet-views.js';
import { CommandContext, PlatformClocks } from '../command-context.js';
import { IdentityClaims } from '../claims/identity-claims.js';
import { IDS, type Actor } from '../tokens.js';
import { SignedRetryService, type SignedRequest, type SignedResult } from './signed-retry.service.js';
import { emailRequired, WalletAccounts, type ProvisionedWallet } from './wallet-accounts.js';
import { WalletQueries } from './wallet-queries.js';
import { WalletVerifiers } from './wallet-verifiers.js';
import { effectId } from '../idempotency/effect-ids.js';

export interface AddCredentialInput {
  type: AuthMethodType;
  accountId: string;
  nickname?: string;
  /** PASSKEY: the registration challenge the integrator's backend issued. */
  challenge?: string;
  attestation?: PasskeyAttestation;
  oidcToken?: string;
}

export class AddCredentialCommand {
  constructor(
    readonly input: AddCredentialInput,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}
export class IssueCredentialChallengeCommand {
  constructor(
    readonly authMethodId: string,
    readonly clientPublicKey: string | undefined,
    readonly actor: Actor,
  ) {}
}
export class RevokeCredentialCommand {
  constructor(
    readonly authMethodId: string,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}

export interface PasskeyAuthChallenge {
  credentialId: string;
  challenge: string;
  requestId: string;
  expiresAt: string;
}

const PASSKEY_CHALLENGE_TTL_SECONDS = 300;

/** A credential of the caller's platform with its provisioned wallet, or 404. */
export async function loadCredential(
  queries: WalletQueries,
  wallets: WalletAccounts,
  authMethodId: string,
  actor: Actor,
): Promise<{ wallet: ProvisionedWallet; method: AuthMethodRecord }> {
  const doc = await queries.credential(actor.platformId, authMethodId);
  const wallet = await wallets.find(doc.accountId, actor);
  const method = wallet?.authMethods.get(authMethodId);
  if (!wallet || !isAuthMethodActive(method)) throw notFound('AUTH_METHOD', authMethodId);
  return { wallet, method };
}

/**
 * POST /auth/credentials. The first credential of an account is added directly; once the
 * account has one, adding another is a signed retry stamped by a session of the account.
 * Attestations and tokens are verified on both steps, so step 1 refuses what step 2 would.
 */
@CommandHandler(AddCredentialCommand)
export class AddCredentialHandler implements ICommandHandler<AddCredentialCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly wallets: WalletAccounts,
    private readonly verifiers: WalletVerifiers,
    private readonly signedRetry: SignedRetryService,
    private readonly queries: WalletQueries,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ input, signed, actor }: AddCredentialCommand): Promise<SignedResult<AuthMethodView>> {
    const wallet = await this.wallets.own(input.accountId, actor);
    const authMethod = await this.newAuthMethod(input, wallet, actor);
    let signedRetry: SignedRetryProof | undefined;
    if (requiresSignedRetryToAddAuthMethod(wallet)) {
      const step = await this.signedRetry.step(
        wallet.accountId,
        { intent: 'ADD_AUTH_METHOD', targetId: wallet.accountId, authMethodType: input.type, authMethod },
        signed,
        actor,
      );
      if (step.kind === 'challenge') return step;
      signedRetry = step.proof;
    }
    const authMethodId = publicId('AuthMethod', effectId(actor, this.ctx.ids));
    const owner = { id: authMethodId, stream: streams.wallet(wallet.accountId) };
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const add = () =>
      this.wallets.decide(
        wallet.accountId,
        {
          type: 'AddAuthMethod',
          accountId: wallet.accountId,
          platformId: wallet.platformId,
          authMethodId,
          authMethod,
          signedRetry,
          now,
        },
        actor,
      );
    // A WebAuthn credential belongs to one wallet in the installation: claimed before it is added.
    const { state } =
      authMethod.type === 'PASSKEY'
        ? await this.claims.holding([passkeyCredentialKey(authMethod.passkey.credentialId)], owner, actor, add)
        : await add();
    return { kind: 'done', result: toAuthMethodView(state, requireAuthMethod(state, authMethodId)) };
  }

  private async newAuthMethod(
    input: AddCredentialInput,
    wallet: ProvisionedWallet,
    actor: Actor,
  ): Promise<NewAuthMethod> {
    switch (input.type) {
      case 'EMAIL_OTP': {
        // The address is the customer's email, kept in sync when it changes; it is not chosen here.
        if (input.nickname !== undefined)
          throw invalid(
            'INVALID_INPUT',
            'an EMAIL_OTP credential uses the customer’s email; nickname is not accepted',
            'nickname',
          );
        const email = wallet.customerId
          ? (await this.ctx.runner.load(streams.customer(wallet.customerId), customerDecider)).state.profile.email
          : undefined;
        if (!email) throw emailRequired();
        return { type: 'EMAIL_OTP', email };
      }
      case 'OAUTH': {
        if (!input.oidcToken)
          throw invalid('INVALID_INPUT', 'oidcToken is required for an OAUTH credential', 'oidcToken');
        const identity = await this.verifiers.verifyOidc(actor.platformId, input.oidcToken);
        return {
          type: 'OAUTH',
          nickname: identity.email ?? input.nickname ?? identity.sub,
          oauth: { iss: identity.iss, sub: identity.sub, aud: identity.aud },
        };
      }
      case 'PASSKEY': {
        if (!input.attestation)
          throw invalid('INVALID_INPUT', 'attestation is required for a PASSKEY credential', 'attestation');
        if (!input.challenge)
          throw invalid('INVALID_INPUT', 'challenge is required for a PASSKEY credential', 'challenge');
        const registered = await verifyPasskeyRegistration({
          attestation: input.attestation,
          expectedChallenge: input.challenge,
          relyingParty: this.verifiers.relyingParty,
        });
        if (!registered.ok) throw unauthorized(`passkey registration failed: ${registered.reason}`);
        // Refused before a challenge is issued; the claim at the write is what stands guard.
        if (await this.queries.passkeyRegistered(registered.credential.credentialId)) {
          throw invalid(
            'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
            'this passkey credentialId is already registered',
            'attestation.credentialId',
          );
        }
        return { type: 'PASSKEY', nickname: input.nickname ?? 'Passkey', passkey: registered.credential };
      }
    }
  }
}

/**
 * POST /auth/credentials/{id}/challenge: a new OTP "email" (rate limited) or a passkey challenge
 * bound to the key the session will be sealed to.
 */
@CommandHandler(IssueCredentialChallengeCommand)
export class IssueCredentialChallengeHandler implements ICommandHandler<IssueCredentialChallengeCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly queries: WalletQueries,
    private readonly verifiers: WalletVerifiers,
    private readonly clocks: PlatformClocks,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async execute({
    authMethodId,
    clientPublicKey,
    actor,
  }: IssueCredentialChallengeCommand): Promise<AuthMethodView | PasskeyAuthChallenge> {
    const { wallet, method } = await loadCredential(this.queries, this.wallets, authMethodId, actor);
    const now = await this.clocks.now(actor.platformId);
    if (method.type === 'EMAIL_OTP') {
      await this.verifiers.assertOtpDelivery(actor.platformId);
      const otp = { type: 'RecordOtpChallenge' as const, authMethodId, now: now.toISOString() };
      const { state } = await this.wallets.decide(wallet.accountId, otp, actor, 'append');
      this.verifiers.otpIssued(authMethodId);
      return toAuthMethodView(state, requireAuthMethod(state, authMethodId));
    }
    if (method.type === 'OAUTH')
      throw invalid('INVALID_INPUT', 'OAUTH credentials take no challenge: call /verify with a fresh oidcToken');
    if (!clientPublicKey)
      throw invalid('INVALID_INPUT', 'clientPublicKey is required for a PASSKEY challenge', 'clientPublicKey');
    const requestId = publicId('Request', this.ids.uuid());
    const challenge = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_SECONDS * 1000).toISOString();
    const passkey = { authMethodId, requestId, challenge, clientPublicKey, expiresAt, now: now.toISOString() };
    await this.wallets.decide(wallet.accountId, { type: 'IssuePasskeyChallenge', ...passkey }, actor, 'append');
    return { credentialId: method.passkey!.credentialId, challenge, requestId, expiresAt };
  }
}

/** DELETE /auth/credentials/{id}: a signed retry stamped by a session of another credential of the account. */
@CommandHandler(RevokeCredentialCommand)
export class RevokeCredentialHandler implements ICommandHandler<RevokeCredentialCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly queries: WalletQueries,
    private readonly signedRetry: SignedRetryService,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ authMethodId, signed, actor }: RevokeCredentialCommand): Promise<SignedResult<undefined>> {
    const { wallet, method } = await loadCredential(this.queries, this.wallets, authMethodId, actor);
    const step = await this.signedRetry.step(
      wallet.accountId,
      { intent: 'REVOKE_AUTH_METHOD', targetId: authMethodId },
      signed,
      actor,
    );
    if (step.kind === 'challenge') return step;
    const signedRetry = step.proof;
    await this.wallets.decide(wallet.accountId, { type: 'RevokeAuthMethod', authMethodId, signedRetry }, actor);
    // After the revocation: a crash in between leaves the claim with a revoked credential, which anyone may take.
    if (method.passkey)
      await this.claims.release([passkeyCredentialKey(method.passkey.credentialId)], authMethodId, actor);
    return { kind: 'done', result: undefined };
  }
}
