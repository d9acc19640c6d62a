import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';

/**
 * Passkey ceremonies. The API names the WebAuthn response fields in its own style
 * (`clientDataJson`, `credentialId`); they are mapped onto the response JSON that
 * `@simplewebauthn/server` verifies. User verification is required (the library default).
 */
export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

export interface RelyingParty {
  rpId: string | string[];
  origins: string | string[];
}

/** A registered passkey as the wallet state stores it (all public). */
export interface PasskeyCredential {
  credentialId: string;
  /** COSE-encoded public key, base64url. */
  publicKey: string;
  counter: number;
  transports?: string[];
}

export type PasskeyResult<T> = ({ ok: true } & T) | { ok: false; reason: string };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function failure(error: unknown): { ok: false; reason: string } {
  return { ok: false, reason: error instanceof Error ? error.message : 'passkey verification failed' };
}

export async function verifyPasskeyRegistration(input: {
  attestation: PasskeyAttestation;
  expectedChallenge: string;
  relyingParty: RelyingParty;
}): Promise<PasskeyResult<{ credential: PasskeyCredential }>> {
  const { attestation, expectedChallenge, relyingParty } = input;
  if (!BASE64URL.test(attestation.credentialId ?? '')) return { ok: false, reason: 'credentialId is not base64url' };
  try {
    const result = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          transports: attestation.transports,
        },
      },
      expectedChallenge,
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.rpId,
    });
    if (!result.verified) return { ok: false, reason: 'the attestation did not verify' };
    const { credential } = result.registrationInfo;
    // The library reads the id from authenticatorData; the client's claim must be that same id.
    if (credential.id !== attestation.credentialId)
      return { ok: false, reason: 'credentialId does not match the attested credential' };
    return {
      ok: true,
      credential: {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        ...(attestation.transports ? { transports: [...attestation.transports] } : {}),
      },
    };
  } catch (error) {
    return failure(error);
  }
}

/**
 * Verifies an assertion against the stored credential. A counter that does not grow is refused
 * here; a reused challenge is refused by the wallet state, which consumes each challenge once.
 */
export async function verifyPasskeyAuthentication(input: {
  assertion: PasskeyAssertion;
  expectedChallenge: string;
  relyingParty: RelyingParty;
  credential: PasskeyCredential;
}): Promise<PasskeyResult<{ credentialId: string; newCounter: number; userHandle?: string }>> {
  const { assertion, expectedChallenge, relyingParty, credential } = input;
  if (assertion.credentialId !== credential.credentialId)
    return { ok: false, reason: 'the assertion is for another credential' };
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: assertion.credentialId,
        rawId: assertion.credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: assertion.clientDataJson,
          authenticatorData: assertion.authenticatorData,
          signature: assertion.signature,
          ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
        },
      },
      expectedChallenge,
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.rpId,
      credential: {
        id: credential.credentialId,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
        counter: credential.counter,
        transports: credential.transports,
      },
    });
    if (!result.verified) return { ok: false, reason: 'the assertion signature is invalid' };
    return {
      ok: true,
      credentialId: credential.credentialId,
      newCounter: result.authenticationInfo.newCounter,
      ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
    };
  } catch (error) {
    return failure(error);
  }
}
