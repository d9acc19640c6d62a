import { verifyStamp } from '#crypto/stamp.js';
import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/ids.js';
import type { QuoteRecord } from '#domain/quotes/quote.js';
import { parsePayloadToSign } from '#domain/wallet/payload.js';
import { isAuthMethodActive, isSessionActive, sessionByPublicKey } from '#domain/wallet/wallet-auth-state.js';
import { walletAuthDecider } from '#domain/wallet/wallet-auth.js';
import type { CommandRunner } from '../command-runner.js';

export function storedPayloadToSign(quote: QuoteRecord): string | undefined {
  const info = quote.paymentInstructions?.[0]?.accountOrWalletInfo as
    { accountType?: string; payloadToSign?: string } | undefined;
  return info?.accountType === 'EMBEDDED_WALLET' ? info.payloadToSign : undefined;
}

const refuse = (code: string, reason: string) =>
  new DomainError('unauthorized', code, 'wallet authentication failed', { reason });

export interface EmbeddedWalletExecution {
  quote: QuoteRecord;
  /** The `Service-Wallet-Signature` header, if any. */
  signature?: string;
  /** The `Request-Id` header, if any (it must then be the quote's requestId). */
  requestId?: string;
  now: Date;
}

/**
 * The single place where executing a quote from an EMBEDDED_WALLET is authorized: the stamp must
 * verify over the quote's stored payloadToSign and its key must be the signing key of an active
 * session of the source wallet. The quote itself is single use (it leaves PENDING on execution),
 * so the payload's requestId cannot be replayed into a second payment.
 */
export async function authorizeEmbeddedWalletExecution(
  runner: CommandRunner,
  execution: EmbeddedWalletExecution,
): Promise<void> {
  const { quote, signature, requestId, now } = execution;
  if (!signature) {
    throw refuse(
      'WALLET_SIGNATURE_MISSING',
      'executing a quote from an embedded wallet needs a Service-Wallet-Signature stamp over the quote’s payloadToSign',
    );
  }
  const payload = storedPayloadToSign(quote);
  if (!payload) throw refuse('WALLET_SIGNATURE_INVALID', 'the quote has no payloadToSign');
  if (requestId !== undefined && requestId !== parsePayloadToSign(payload).requestId) {
    throw refuse('UNAUTHORIZED', 'Request-Id is not the requestId of the quote’s payloadToSign');
  }
  const verified = verifyStamp(signature, payload);
  if (!verified.ok) throw refuse(verified.code, verified.reason);
  const { state } = await runner.load(streams.wallet(quote.source.accountId), walletAuthDecider);
  const session = sessionByPublicKey(state, verified.publicKey);
  if (
    !session ||
    !isSessionActive(session, now.toISOString()) ||
    !isAuthMethodActive(state.authMethods.get(session.authMethodId))
  ) {
    throw refuse('WALLET_SIGNATURE_INVALID', 'the signing key is not an active session of the source wallet');
  }
}
