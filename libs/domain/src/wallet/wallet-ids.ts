/**
 * Public ids of the wallet-auth resources (`AuthMethod:<uuid>`, `Session:<uuid>`, `Request:<uuid>`)
 * and the stream of one embedded wallet's auth state (`wallet-<account uuid>`).
 */
export type WalletResourceKind = 'AuthMethod' | 'Session' | 'Request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function walletPublicId(kind: WalletResourceKind, uuid: string): string {
  return `${kind}:${uuid}`;
}

export function isWalletPublicId(kind: WalletResourceKind, value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(`${kind}:`) && UUID.test(value.slice(kind.length + 1));
}

/** The auth state of an EMBEDDED_WALLET account lives in its own stream, keyed by the account uuid. */
export function walletStream(accountId: string): string {
  return `wallet-${accountId.split(':')[1]}`;
}
