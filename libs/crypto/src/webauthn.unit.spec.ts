import { describe, it, expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SoftwareAuthenticator } from '../../../test/support/webauthn-authenticator.js';
import { verifyPasskeyAuthentication, verifyPasskeyRegistration, type PasskeyCredential } from './webauthn.js';

const relyingParty = {
  rpId: 'wallet.example.com',
  origins: ['https://wallet.example.com', 'android:apk-key-hash:abc'],
};
const origin = 'https://wallet.example.com';
const challenge = () => randomBytes(32).toString('base64url');

async function registered(
  authenticator = new SoftwareAuthenticator(),
): Promise<{ authenticator: SoftwareAuthenticator; credential: PasskeyCredential }> {
  const c = challenge();
  const attestation = authenticator.register({ challenge: c, origin, rpId: relyingParty.rpId, userHandle: 'user-1' });
  const result = await verifyPasskeyRegistration({ attestation, expectedChallenge: c, relyingParty });
  if (!result.ok) throw new Error(result.reason);
  return { authenticator, credential: result.credential };
}

/** A registered passkey and its assertion over a fresh challenge `c`; `options` change what the authenticator signs. */
async function asserted(options: { userVerified?: boolean } = {}, authenticator?: SoftwareAuthenticator) {
  const { credential, authenticator: signer } = await registered(authenticator);
  const c = challenge();
  const assertion = signer.assert(credential.credentialId, {
    challenge: c,
    origin,
    rpId: relyingParty.rpId,
    ...options,
  });
  return { credential, c, assertion };
}

const tamperJson = (b64: string, change: (v: Record<string, unknown>) => Record<string, unknown>) =>
  Buffer.from(JSON.stringify(change(JSON.parse(Buffer.from(b64, 'base64url').toString('utf8')))), 'utf8').toString(
    'base64url',
  );

describe('passkey registration', () => {
  it('returns the credential id, COSE public key and counter of a valid attestation', async () => {
    const authenticator = new SoftwareAuthenticator();
    const c = challenge();
    const attestation = authenticator.register({ challenge: c, origin, rpId: relyingParty.rpId });
    const result = await verifyPasskeyRegistration({ attestation, expectedChallenge: c, relyingParty });
    expect(result).toMatchObject({
      ok: true,
      credential: { credentialId: attestation.credentialId, counter: 1, transports: ['internal'] },
    });
    expect(result.ok && result.credential.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses another challenge, origin or rpId', async () => {
    const authenticator = new SoftwareAuthenticator();
    const c = challenge();
    const good = authenticator.register({ challenge: c, origin, rpId: relyingParty.rpId });
    expect(
      await verifyPasskeyRegistration({ attestation: good, expectedChallenge: challenge(), relyingParty }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('challenge') });
    const wrongOrigin = authenticator.register({
      challenge: c,
      origin: 'https://evil.example',
      rpId: relyingParty.rpId,
    });
    expect(
      await verifyPasskeyRegistration({ attestation: wrongOrigin, expectedChallenge: c, relyingParty }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('origin') });
    const wrongRp = authenticator.register({ challenge: c, origin, rpId: 'evil.example' });
    expect(await verifyPasskeyRegistration({ attestation: wrongRp, expectedChallenge: c, relyingParty })).toMatchObject(
      { ok: false, reason: expect.stringContaining('RP ID') },
    );
  });

  it('requires user verification', async () => {
    const authenticator = new SoftwareAuthenticator({ userVerified: false });
    const c = challenge();
    const attestation = authenticator.register({ challenge: c, origin, rpId: relyingParty.rpId });
    expect(await verifyPasskeyRegistration({ attestation, expectedChallenge: c, relyingParty })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('verification'),
    });
  });

  it('refuses a credentialId that differs from the attested one', async () => {
    const authenticator = new SoftwareAuthenticator();
    const c = challenge();
    const attestation = authenticator.register({ challenge: c, origin, rpId: relyingParty.rpId });
    const result = await verifyPasskeyRegistration({
      attestation: { ...attestation, credentialId: randomBytes(32).toString('base64url') },
      expectedChallenge: c,
      relyingParty,
    });
    expect(result).toEqual({ ok: false, reason: 'credentialId does not match the attested credential' });
  });
});

describe('passkey authentication', () => {
  it('verifies an assertion and reports the new counter', async () => {
    const { credential, c, assertion } = await asserted();
    const result = await verifyPasskeyAuthentication({ assertion, expectedChallenge: c, relyingParty, credential });
    expect(result).toEqual({
      ok: true,
      credentialId: credential.credentialId,
      newCounter: 2,
      userHandle: Buffer.from('user-1').toString('base64url'),
    });
  });

  it('refuses a replayed assertion because its counter no longer increases', async () => {
    const { credential, c, assertion } = await asserted();
    const first = await verifyPasskeyAuthentication({ assertion, expectedChallenge: c, relyingParty, credential });
    if (!first.ok) throw new Error(first.reason);
    const afterFirst = { ...credential, counter: first.newCounter };
    const replay = await verifyPasskeyAuthentication({
      assertion,
      expectedChallenge: c,
      relyingParty,
      credential: afterFirst,
    });
    expect(replay).toMatchObject({ ok: false, reason: expect.stringContaining('counter') });
  });

  it(
    'accepts authenticators that never count (counter 0): challenge single use is what stops ' + 'replays there',
    async () => {
      const { credential, c, assertion } = await asserted({}, new SoftwareAuthenticator({ counterStep: 0 }));
      expect(credential.counter).toBe(0);
      expect(
        await verifyPasskeyAuthentication({ assertion, expectedChallenge: c, relyingParty, credential }),
      ).toMatchObject({ ok: true, newCounter: 0 });
    },
  );

  it('refuses an assertion for another challenge', async () => {
    const { authenticator, credential } = await registered();
    const assertion = authenticator.assert(credential.credentialId, {
      challenge: challenge(),
      origin,
      rpId: relyingParty.rpId,
    });
    expect(
      await verifyPasskeyAuthentication({ assertion, expectedChallenge: challenge(), relyingParty, credential }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('challenge') });
  });

  it('refuses tampered clientData (signature no longer covers it)', async () => {
    const { credential, c, assertion } = await asserted();
    const tampered = {
      ...assertion,
      clientDataJson: tamperJson(assertion.clientDataJson, (v) => ({ ...v, crossOrigin: false, extra: 'x' })),
    };
    expect(
      await verifyPasskeyAuthentication({ assertion: tampered, expectedChallenge: c, relyingParty, credential }),
    ).toEqual({ ok: false, reason: 'the assertion signature is invalid' });
  });

  it('refuses a tampered signature', async () => {
    const { credential, c, assertion } = await asserted();
    const sig = Buffer.from(assertion.signature, 'base64url');
    sig[sig.length - 1] ^= 0x01;
    const result = await verifyPasskeyAuthentication({
      assertion: { ...assertion, signature: sig.toString('base64url') },
      expectedChallenge: c,
      relyingParty,
      credential,
    });
    expect(result.ok).toBe(false);
  });

  it('refuses an assertion signed by another passkey and one naming another credential', async () => {
    const { credential } = await registered();
    const other = await registered();
    const c = challenge();
    const byOther = other.authenticator.assert(other.credential.credentialId, {
      challenge: c,
      origin,
      rpId: relyingParty.rpId,
    });
    expect(
      await verifyPasskeyAuthentication({
        assertion: { ...byOther, credentialId: credential.credentialId },
        expectedChallenge: c,
        relyingParty,
        credential,
      }),
    ).toEqual({ ok: false, reason: 'the assertion signature is invalid' });
    expect(
      await verifyPasskeyAuthentication({ assertion: byOther, expectedChallenge: c, relyingParty, credential }),
    ).toEqual({ ok: false, reason: 'the assertion is for another credential' });
  });

  it('requires user verification on assertions', async () => {
    const { credential, c, assertion } = await asserted({ userVerified: false });
    expect(
      await verifyPasskeyAuthentication({ assertion, expectedChallenge: c, relyingParty, credential }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('verification') });
  });
});
