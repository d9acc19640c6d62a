import { describe, expect, it } from '@jest/globals';
import { generateP256KeyPair } from '@turnkey/crypto';
import { randomBytes } from 'node:crypto';
import { IdentityClaims } from '#application/claims/identity-claims.js';
import { passkeyCredentialKey } from '#domain/claims/claim.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';
import { createWallet, emailOtpSession, openSession, signedCall, walletEventCount } from '../support/wallet-session.js';
import { useWalletService } from '../support/wallet-fixture.js';

const RP = { rpId: 'wallet.example.com', origin: 'https://wallet.example.com' };

describe('passkeys over HTTP with a software WebAuthn authenticator', () => {
  const authenticator = new SoftwareAuthenticator();
  let passkey: { id: string; credentialId: string };
  let firstRegistration: Record<string, unknown>;

  // Every test has a wallet of its own; a test about an existing passkey registers one first.
  const w = useWalletService({ each: true, env: { WEBAUTHN_RP_ID: RP.rpId, WEBAUTHN_ORIGINS: RP.origin } });
  const { t } = w;
  const { api, clock } = t;

  const registration = (ceremony: Partial<typeof RP> = {}) => {
    const challenge = randomBytes(32).toString('base64url');
    const attestation = authenticator.register({ challenge, ...RP, ...ceremony, userHandle: 'holder-1' });
    return { type: 'PASSKEY', accountId: w.wallet.accountId, nickname: 'Laptop', challenge, attestation };
  };

  /** Registers a passkey on the test's wallet by signed retry, as the first test does. */
  const registerPasskey = async () => {
    firstRegistration = registration();
    const added = await signedCall(api, w.session, 'POST', '/auth/credentials', firstRegistration);
    if (added.status !== 201) throw new Error(`passkey registration: ${added.status} ${JSON.stringify(added.body)}`);
    passkey = { id: added.body.id, credentialId: added.body.credentialId };
  };

  const passkeyChallenge = async (clientPublicKey: string) => {
    const res = await api.post(`/auth/credentials/${passkey.id}/challenge`, { clientPublicKey });
    expect(res.status).toBe(200);
    return res.body as { credentialId: string; challenge: string; requestId: string; expiresAt: string };
  };

  it('registers a passkey by signed retry; the credential id is the authenticator’s rawId', async () => {
    const body = registration();
    firstRegistration = body;
    const added = await signedCall(api, w.session, 'POST', '/auth/credentials', body);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      accountId: w.wallet.accountId,
      type: 'PASSKEY',
      nickname: 'Laptop',
      credentialId: body.attestation.credentialId,
    });
    passkey = { id: added.body.id, credentialId: added.body.credentialId };
    // The credential id is claimed installation-wide by the new credential.
    expect((await t.service.app.get(IdentityClaims).holder(passkeyCredentialKey(passkey.credentialId)))?.ownerId).toBe(
      passkey.id,
    );
  });

  it(
    'refuses the same WebAuthn credentialId twice with PASSKEY_CREDENTIAL_ALREADY_EXISTS, changing ' + 'nothing',
    async () => {
      await registerPasskey();
      const before = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);
      const twice = await api.post('/auth/credentials', firstRegistration);
      expect(twice.status).toBe(400);
      expect(twice.body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
      expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBe(before);
    },
  );

  it('refuses the same credentialId on another account too', async () => {
    await registerPasskey();
    const other = await createWallet(api, { email: 'second-holder@example.com' });
    const before = await walletEventCount(t.service.infra.eventStore, other.accountId);
    const res = await api.post('/auth/credentials', { ...firstRegistration, accountId: other.accountId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    expect(await walletEventCount(t.service.infra.eventStore, other.accountId)).toBe(before);
  });

  it('refuses an attestation whose credentialId claim is not the attested credential', async () => {
    await registerPasskey();
    const body = registration();
    const res = await api.post('/auth/credentials', {
      ...body,
      attestation: { ...body.attestation, credentialId: passkey.credentialId },
    });
    expect(res.status).toBe(401);
    expect(res.body.reason).toMatch(/^passkey registration failed/);
  });

  it('refuses an attestation made for another origin or a different challenge', async () => {
    const otherOrigin = await api.post('/auth/credentials', registration({ origin: 'https://evil.example.com' }));
    expect(otherOrigin.status).toBe(401);
    expect(otherOrigin.body.reason).toMatch(/^passkey registration failed: .*origin/i);
    const body = registration();
    const wrongChallenge = await api.post('/auth/credentials', {
      ...body,
      challenge: randomBytes(32).toString('base64url'),
    });
    expect(wrongChallenge.status).toBe(401);
    expect(wrongChallenge.body.reason).toMatch(/challenge/i);
  });

  it('authenticates with an assertion over the issued challenge; @turnkey/crypto opens the session key', async () => {
    await registerPasskey();
    const client = generateP256KeyPair();
    const missingKey = await api.post(`/auth/credentials/${passkey.id}/challenge`, {});
    expect(missingKey.status).toBe(400);
    const challenge = await passkeyChallenge(client.publicKeyUncompressed);
    expect(challenge).toMatchObject({
      credentialId: passkey.credentialId,
      requestId: expect.stringMatching(/^Request:[0-9a-f-]{36}$/),
    });
    expect(Date.parse(challenge.expiresAt)).toBeGreaterThan(clock.now().getTime());
    const assertion = authenticator.assert(passkey.credentialId, { challenge: challenge.challenge, ...RP });
    const verified = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { type: 'PASSKEY', assertion },
      { 'Request-Id': challenge.requestId },
    );
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ type: 'PASSKEY', credentialId: passkey.credentialId, nickname: 'Laptop' });
    const session = openSession(verified.body, client.privateKey, passkey.id);
    // The passkey session can sign: it revokes the email session.
    const revoked = await signedCall(api, session, 'DELETE', `/auth/sessions/${w.session.id}`);
    expect(revoked.status).toBe(204);
    w.session = await emailOtpSession(api, w.wallet.emailOtpId, { challenge: false });

    const replay = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { type: 'PASSKEY', assertion },
      { 'Request-Id': challenge.requestId },
    );
    expect(replay.status).toBe(401);
    expect(replay.body.reason).toMatch(/counter/);
  });

  it('refuses a replayed assertion of an authenticator without counters: each challenge is single use', async () => {
    const counterless = new SoftwareAuthenticator({ counterStep: 0 });
    const challenge = randomBytes(32).toString('base64url');
    const attestation = counterless.register({ challenge, ...RP });
    const added = await signedCall(api, w.session, 'POST', '/auth/credentials', {
      type: 'PASSKEY',
      accountId: w.wallet.accountId,
      nickname: 'Key',
      challenge,
      attestation,
    });
    expect(added.status).toBe(201);
    const client = generateP256KeyPair();
    const issued = (
      await api.post(`/auth/credentials/${added.body.id}/challenge`, { clientPublicKey: client.publicKeyUncompressed })
    ).body;
    const assertion = counterless.assert(attestation.credentialId, { challenge: issued.challenge, ...RP });
    expect(
      (await api.post(`/auth/credentials/${added.body.id}/verify`, { assertion }, { 'Request-Id': issued.requestId }))
        .status,
    ).toBe(200);
    const replay = await api.post(
      `/auth/credentials/${added.body.id}/verify`,
      { assertion },
      { 'Request-Id': issued.requestId },
    );
    expect(replay.status).toBe(401);
    expect(replay.body.reason).toBe('the passkey challenge was already used');
  });

  it('refuses tampered assertions and leaves the challenge usable for the genuine one', async () => {
    await registerPasskey();
    const client = generateP256KeyPair();
    const challenge = await passkeyChallenge(client.publicKeyUncompressed);
    const assertion = authenticator.assert(passkey.credentialId, { challenge: challenge.challenge, ...RP });
    const before = await walletEventCount(t.service.infra.eventStore, w.wallet.accountId);

    const signature = Buffer.from(assertion.signature, 'base64url');
    signature[signature.length - 1] ^= 0x01;
    const badSignature = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion: { ...assertion, signature: signature.toString('base64url') } },
      { 'Request-Id': challenge.requestId },
    );
    expect(badSignature.status).toBe(401);
    expect(badSignature.body.reason).toMatch(/^passkey assertion refused/);

    const clientData = JSON.parse(Buffer.from(assertion.clientDataJson, 'base64url').toString('utf8'));
    const otherChallenge = Buffer.from(
      JSON.stringify({ ...clientData, challenge: randomBytes(32).toString('base64url') }),
    ).toString('base64url');
    const badChallenge = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion: { ...assertion, clientDataJson: otherChallenge } },
      { 'Request-Id': challenge.requestId },
    );
    expect(badChallenge.status).toBe(401);

    const noRequestId = await api.post(`/auth/credentials/${passkey.id}/verify`, { assertion });
    expect(noRequestId.status).toBe(401);
    expect(noRequestId.body.code).toBe('REQUEST_ID_MISSING');

    const withKey = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion, clientPublicKey: client.publicKeyUncompressed },
      { 'Request-Id': challenge.requestId },
    );
    expect(withKey.status).toBe(400);
    expect(await walletEventCount(t.service.infra.eventStore, w.wallet.accountId)).toBe(before);

    const genuine = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion },
      { 'Request-Id': challenge.requestId },
    );
    expect(genuine.status).toBe(200);
    openSession(genuine.body, client.privateKey, passkey.id);
  });

  it('requires user verification and an unexpired challenge', async () => {
    await registerPasskey();
    const client = generateP256KeyPair();
    const challenge = await passkeyChallenge(client.publicKeyUncompressed);
    const unverified = authenticator.assert(passkey.credentialId, {
      challenge: challenge.challenge,
      ...RP,
      userVerified: false,
    });
    const noUv = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion: unverified },
      { 'Request-Id': challenge.requestId },
    );
    expect(noUv.status).toBe(401);

    const late = await passkeyChallenge(client.publicKeyUncompressed);
    clock.advance(301_000);
    const assertion = authenticator.assert(passkey.credentialId, { challenge: late.challenge, ...RP });
    const expired = await api.post(
      `/auth/credentials/${passkey.id}/verify`,
      { assertion },
      { 'Request-Id': late.requestId },
    );
    expect({ status: expired.status, code: expired.body.code, reason: expired.body.reason }).toEqual({
      status: 401,
      code: 'CHALLENGE_EXPIRED',
      reason: 'the passkey challenge has expired',
    });
  });
});
