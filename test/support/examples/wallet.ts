import { generateP256KeyPair } from '@turnkey/crypto';
import { googleClaims, sandboxToken } from '../../e2e/wallet-support.js';
import { emailOtpSession, signedRequest, walletHolder, type WalletSession } from '../wallet-session.js';
import { ok, type Tour } from './tour.js';

/**
 * The embedded wallet's signed calls, each a 202 challenge then the stamped retry: a credential added and removed,
 * a session refreshed and another revoked, the account's settings changed and its key exported.
 */
export async function walletTour({ api, clock }: Tour): Promise<void> {
  const { wallet } = await walletHolder(api);
  const signed = async (method: string, path: string, body: unknown, status = 200) => {
    const { challenge, result } = await signedRequest(api, method, path, body, wallet);
    ok(challenge, 202, `${method} ${path} challenge`);
    return ok(result, status, `${method} ${path}`).body;
  };
  const oidcToken = sandboxToken(googleClaims(clock.now().getTime(), { sub: 'google-examples' }));
  const oauth = await signed(
    'POST',
    '/auth/credentials',
    { type: 'OAUTH', accountId: wallet.accountId, oidcToken },
    201,
  );
  await signed('DELETE', `/auth/credentials/${oauth.id}`, undefined, 204);

  const other: WalletSession = await emailOtpSession(api, wallet.authMethodId, { challenge: false });
  await signed('DELETE', `/auth/sessions/${other.id}`, undefined, 204);
  await signed('PATCH', `/internal-accounts/${wallet.accountId}`, { privateEnabled: true });
  const exportKey = generateP256KeyPair().publicKeyUncompressed;
  await signed('POST', `/internal-accounts/${wallet.accountId}/export`, { clientPublicKey: exportKey });
  const refreshKey = generateP256KeyPair().publicKeyUncompressed;
  await signed('POST', `/auth/sessions/${wallet.id}/refresh`, { clientPublicKey: refreshKey });
}
