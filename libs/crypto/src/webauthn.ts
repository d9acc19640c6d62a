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

/**
 * The library's options for one ceremony: its `response` in the public-key credential JSON, and the challenge,
 * origins and rpId it must be bound to.
 */
function ceremony<R>(credentialId: string, response: R, expectedChallenge: string, relyingParty: RelyingParty) {
  return {
    response: {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response,
    },
    expectedChallenge,
    expectedOrigin: relyingParty.origins,
    expectedRPID: relyingParty.rpId,
  };
}

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
    const response = {
      clientDataJSON: attestation.clientDataJson,
      attestationObject: attestation.attestationObject,
      transports: attestation.transports,
    };
    const result = await verifyRegistrationResponse(
      ceremony(attestation.credentialId, response, expectedChallenge, relyingParty),
    );
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
    const response = {
      clientDataJSON: assertion.clientDataJson,
      authenticatorData: assertion.authenticatorData,
      signature: assertion.signature,
      ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
    };
    const result = await verifyAuthenticationResponse({
      ...ceremony(assertion.credentialId, response, expectedChallenge, relyingParty),
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
