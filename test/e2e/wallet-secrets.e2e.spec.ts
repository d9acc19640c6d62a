import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { Sqlite } from '#sqlite/driver.js';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ManualClock } from '#domain/clock.js';
import { SoftwareAuthenticator } from '../support/webauthn-authenticator.js';
import {
  createWallet,
  emailOtpSession,
  openSession,
  signedCall,
  type WalletSession,
} from '../support/wallet-session.js';
import { googleClaims, oidcNonce, sandboxToken } from './wallet-support.js';
import { useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 0, 5, 12);
const RP = { rpId: 'localhost', origin: 'http://localhost:3000' };

/**
 * After a full wallet flow, no session private key, wallet seed or OTP code may be found in the
 * event log, the read-model tables, the raw database files or anything the service logged.
 */
describe('wallet secrets never reach storage or logs', () => {
  const clock = new ManualClock(START);
  const logged: string[] = [];
  const writes = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const secrets: { label: string; hex: string }[] = [];
  const otps = ['000000', '482913', '771604'];

  beforeAll(async () => {
    const capture = (original: typeof writes.out) =>
      ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof process.stdout.write;
    process.stdout.write = capture(writes.out);
    process.stderr.write = capture(writes.err);
  });
  const t = useTestService({ clock, env: { LOG_LEVEL: 'debug' } });
  afterAll(async () => {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  });

  const keep = (label: string, session: WalletSession) => secrets.push({ label, hex: session.privateKey });

  it('runs every secret-bearing step of the wallet flow', async () => {
    const api = t.api;
    const wallet = await createWallet(api);
    for (const wrong of otps.slice(1)) {
      const res = await api.post(`/auth/credentials/${wallet.emailOtpId}/verify`, {
        type: 'EMAIL_OTP',
        otp: wrong,
        clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
      });
      expect(res.status).toBe(401);
    }
    const email = await emailOtpSession(api, wallet.emailOtpId);
    keep('email session', email);

    const oauth = await signedCall(api, email, 'POST', '/auth/credentials', {
      type: 'OAUTH',
      accountId: wallet.accountId,
      oidcToken: sandboxToken(googleClaims(clock.now().getTime())),
    });
    expect(oauth.status).toBe(201);
    const oauthClient = generateP256KeyPair();
    const oauthVerified = await api.post(`/auth/credentials/${oauth.body.id}/verify`, {
      type: 'OAUTH',
      oidcToken: sandboxToken(
        googleClaims(clock.now().getTime(), { nonce: oidcNonce(oauthClient.publicKeyUncompressed) }),
      ),
      clientPublicKey: oauthClient.publicKeyUncompressed,
    });
    const oauthSession = openSession(oauthVerified.body, oauthClient.privateKey, oauth.body.id);
    keep('oauth session', oauthSession);

    const authenticator = new SoftwareAuthenticator();
    const registrationChallenge = randomBytes(32).toString('base64url');
    const attestation = authenticator.register({ challenge: registrationChallenge, ...RP });
    const passkey = await signedCall(api, oauthSession, 'POST', '/auth/credentials', {
      type: 'PASSKEY',
      accountId: wallet.accountId,
      nickname: 'Phone',
      challenge: registrationChallenge,
      attestation,
    });
    expect(passkey.status).toBe(201);
    const passkeyClient = generateP256KeyPair();
    const challenge = (
      await api.post(`/auth/credentials/${passkey.body.id}/challenge`, {
        clientPublicKey: passkeyClient.publicKeyUncompressed,
      })
    ).body;
    const assertion = authenticator.assert(attestation.credentialId, { challenge: challenge.challenge, ...RP });
    const passkeyVerified = await api.post(
      `/auth/credentials/${passkey.body.id}/verify`,
      { assertion },
      { 'Request-Id': challenge.requestId },
    );
    const passkeySession = openSession(passkeyVerified.body, passkeyClient.privateKey, passkey.body.id);
    keep('passkey session', passkeySession);

    const refreshClient = generateP256KeyPair();
    const refreshed = await signedCall(api, passkeySession, 'POST', `/auth/sessions/${email.id}/refresh`, {
      clientPublicKey: refreshClient.publicKeyUncompressed,
    });
    expect(refreshed.status).toBe(200);
    keep('refreshed session', openSession(refreshed.body, refreshClient.privateKey, email.authMethodId));

    expect(
      (
        await signedCall(api, passkeySession, 'PATCH', `/internal-accounts/${wallet.accountId}`, {
          privateEnabled: true,
        })
      ).status,
    ).toBe(200);
    const exportClient = generateP256KeyPair();
    const exported = await signedCall(api, passkeySession, 'POST', `/internal-accounts/${wallet.accountId}/export`, {
      clientPublicKey: exportClient.publicKeyUncompressed,
    });
    secrets.push({
      label: 'wallet seed',
      hex: decryptCredentialBundle(exported.body.encryptedWalletCredentials, exportClient.privateKey),
    });
    expect((await signedCall(api, passkeySession, 'DELETE', `/auth/sessions/${oauthSession.id}`)).status).toBe(204);
    expect((await signedCall(api, passkeySession, 'DELETE', `/auth/credentials/${oauth.body.id}`)).status).toBe(204);
    expect(
      (
        await signedCall(api, passkeySession, 'PATCH', `/customers/${wallet.customerId}`, {
          email: 'moved@example.com',
        })
      ).status,
    ).toBe(200);
    expect(secrets).toHaveLength(5);
  });

  /** Every way a 32-byte secret could be written down. */
  const encodings = (hex: string) => {
    const bytes = Buffer.from(hex, 'hex');
    return [hex, hex.toUpperCase(), bytes.toString('base64'), bytes.toString('base64url')];
  };

  it('finds no secret in the event log', async () => {
    const events = await t.service.infra.eventStore.readAll();
    expect(events.some((e) => e.type === 'SessionIssued')).toBe(true);
    const text = JSON.stringify(events.map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })));
    for (const s of secrets)
      for (const form of encodings(s.hex))
        expect({ secret: s.label, found: text.includes(form) }).toEqual({ secret: s.label, found: false });
    for (const otp of otps) expect(text).not.toContain(`"${otp}"`);
    expect(text).not.toMatch(/"otp"/);
  });

  it('finds no secret in any table of the read-model and event databases, nor in their raw files', () => {
    const files = readdirSync(t.dataDir).filter((f) => f.endsWith('.db'));
    expect(files).toEqual(expect.arrayContaining(['service.db', 'read-models.db']));
    for (const file of files) {
      const db = new Sqlite(join(t.dataDir, file), { readonly: true, fileMustExist: true });
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
        let rows = 0;
        for (const { name } of tables) {
          for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]) {
            rows += 1;
            const text = Object.values(row)
              .map((v) => (Buffer.isBuffer(v) ? `${v.toString('utf8')} ${v.toString('hex')}` : String(v)))
              .join(' ');
            for (const s of secrets)
              for (const form of encodings(s.hex))
                expect({ file, table: name, secret: s.label, found: text.includes(form) }).toMatchObject({
                  found: false,
                });
            for (const otp of otps.slice(1)) expect(text).not.toContain(otp);
          }
        }
        if (file === 'service.db' || file === 'read-models.db') expect(rows).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    }
    // Raw pages, including write-ahead logs, and every other file (document files): secrets as text and raw bytes.
    const entries = readdirSync(t.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const file of entries.map((e) => relative(t.dataDir, join(e.parentPath, e.name)))) {
      const raw = readFileSync(join(t.dataDir, file));
      for (const s of secrets) {
        expect({ file, secret: s.label, bytes: raw.includes(Buffer.from(s.hex, 'hex')) }).toMatchObject({
          bytes: false,
        });
        for (const form of encodings(s.hex))
          expect({ file, secret: s.label, found: raw.includes(Buffer.from(form)) }).toMatchObject({ found: false });
      }
      for (const otp of otps.slice(1)) expect(raw.includes(Buffer.from(otp))).toBe(false);
    }
  });

  it('finds no secret in what the service logged', () => {
    const text = logged.join('');
    // The capture works: the debug line of the OTP issue is there, without any code.
    expect(text).toContain('sandbox OTP issued for AuthMethod:');
    for (const s of secrets)
      for (const form of encodings(s.hex))
        expect({ secret: s.label, found: text.includes(form) }).toEqual({ secret: s.label, found: false });
    for (const otp of otps) expect(text).not.toContain(otp);
  });
});
