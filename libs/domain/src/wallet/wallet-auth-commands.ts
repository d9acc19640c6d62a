import {
  type AuthMethodType,
  type OAuthIdentity,
  type PasskeyPublicKey,
  type SignedChange,
  type SignedRetryIntent,
} from './wallet-auth-state.js';

/**
 * Step 2 of a signed retry, as the edge hands it to the wallet: the stamp has already been
 * verified over the stored payloadToSign of `requestId`, so `stampPublicKey` is the key that
 * really signed. What remains is deciding whether that key and that challenge authorize this
 * very request.
 */
export interface SignedRetryProof {
  requestId: string;
  /** Lowercase compressed P-256 hex from the verified stamp. */
  stampPublicKey: string;
  method: string;
  path: string;
  /** The retried request body exactly as received. */
  body: unknown;
}

export type NewAuthMethod =
  | { type: 'EMAIL_OTP'; email: string }
  | { type: 'PASSKEY'; nickname: string; passkey: PasskeyPublicKey }
  | { type: 'OAUTH'; nickname: string; oauth: OAuthIdentity };

/** What the edge established before asking for a session; the OTP code itself never gets here. */
export type SessionProof =
  | { type: 'EMAIL_OTP' }
  | { type: 'OAUTH'; oauth: OAuthIdentity }
  | { type: 'PASSKEY'; requestId: string; credentialId: string; newCounter: number };

export type WalletAuthCommand =
  | {
      type: 'ProvisionWallet';
      accountId: string;
      platformId: string;
      customerId?: string;
      emailOtp?: { authMethodId: string; email: string };
      /** The wallet seed sealed at rest by the application (opaque here). */
      encryptedSeed?: string;
      now: string;
    }
  | {
      type: 'AddAuthMethod';
      accountId: string;
      platformId: string;
      authMethodId: string;
      authMethod: NewAuthMethod;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | { type: 'UpdateEmailOtpAddress'; email: string; now: string }
  | { type: 'RevokeAuthMethod'; authMethodId: string; signedRetry?: SignedRetryProof; now: string }
  | {
      type: 'IssueSignedRetryChallenge';
      requestId: string;
      intent: SignedRetryIntent;
      method: string;
      path: string;
      targetId: string;
      body: Record<string, unknown>;
      expiresAt: string;
      /** Required for ADD_AUTH_METHOD (the type being added); optional for EXTERNAL. */
      authMethodType?: AuthMethodType;
      /** For ADD_AUTH_METHOD, lets uniqueness rules refuse before anything is signed. */
      authMethod?: NewAuthMethod;
      now: string;
    }
  /**
   * A signed operation whose change is appended elsewhere. With `authorizes` (the target stream and
   * change), an identical retry of a consumed requestId is allowed again and emits nothing: the
   * target stream decides whether the change is still missing (see authorizeSignedRetry).
   */
  | {
      type: 'ConsumeSignedRetry';
      targetId: string;
      authorizes?: SignedChange;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | {
      type: 'IssueSession';
      sessionId: string;
      authMethodId: string;
      publicKey: string;
      expiresAt: string;
      proof: SessionProof;
      now: string;
    }
  | {
      type: 'RefreshSession';
      sessionId: string;
      publicKey: string;
      expiresAt: string;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | { type: 'RevokeSession'; sessionId: string; signedRetry?: SignedRetryProof; now: string }
  | { type: 'RecordOtpChallenge'; authMethodId: string; now: string }
  /** A wrong EMAIL_OTP code: counted durably so the lockout holds across restarts and instances. */
  | { type: 'RecordOtpFailure'; authMethodId: string; now: string }
  | {
      type: 'IssuePasskeyChallenge';
      authMethodId: string;
      requestId: string;
      challenge: string;
      clientPublicKey: string;
      expiresAt: string;
      now: string;
    }
  /** PATCH /internal-accounts/{id}: a signed retry on the account itself (intent EXTERNAL, target the account). */
  | { type: 'SetPrivateEnabled'; privateEnabled: boolean; signedRetry?: SignedRetryProof; now: string }
  /** POST /internal-accounts/{id}/export: records who exported the seed; the sealing happens in the application. */
  | { type: 'ExportWallet'; exportId: string; signedRetry?: SignedRetryProof; now: string };

/** The wallet command of type `T` (or of the types `T` unites). */
export type CommandOf<T extends WalletAuthCommand['type']> = Extract<WalletAuthCommand, { type: T }>;
