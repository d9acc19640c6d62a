import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';

/**
 * A local OIDC issuer for tests: serves a JWKS over HTTP on 127.0.0.1 and signs tokens with
 * the matching private key, so production-mode verification runs against a real remote key set.
 */
export interface JwksServer {
  /** The issuer (`iss`) of tokens it signs: its base URL. */
  issuer: string;
  jwksUri: string;
  /** Number of JWKS fetches served. */
  readonly fetches: number;
  /** Signs `claims` (iss defaults to the issuer) with the published key, or with `key` to forge. */
  sign(claims: JWTPayload, options?: { key?: CryptoKey; kid?: string; alg?: string }): Promise<string>;
  /** A key pair that is not published, to produce tokens with a bad signature. */
  strangerKey(): Promise<CryptoKey>;
  close(): Promise<void>;
}

export async function startJwksServer(options: { alg?: 'ES256' | 'RS256'; kid?: string } = {}): Promise<JwksServer> {
  const alg = options.alg ?? 'ES256';
  const kid = options.kid ?? 'test-key-1';
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  let fetches = 0;

  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/jwks.json') {
      fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  return {
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    get fetches() {
      return fetches;
    },
    async sign(claims, signOptions = {}) {
      return new SignJWT({ iss: issuer, ...claims })
        .setProtectedHeader({ alg: signOptions.alg ?? alg, kid: signOptions.kid ?? kid, typ: 'JWT' })
        .sign(signOptions.key ?? privateKey);
    },
    async strangerKey() {
      return (await generateKeyPair(alg)).privateKey;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
