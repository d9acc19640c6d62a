import { lookup } from 'node:dns/promises';
import {
  isAllowListed,
  isIpLiteral,
  refusedAddress,
  refusedName,
  type AllowedHost,
  type RefusalReason,
} from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a hostname resolves to (injected in tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (what a plain connect would use), every address. */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/**
 * Where to connect: the vetted addresses, which the caller must connect to (not the name again), so
 * a second DNS answer cannot swap in another address between the check and the connect.
 */
export type Target =
  { ok: true; hostname: string; addresses: ResolvedAddress[] } | { ok: false; reason: RefusalReason | 'unresolved' };

/**
 * Resolves a URL's host and applies the address policy: an allow-listed host is trusted whatever
 * it resolves to; otherwise a local or metadata name, or a name with ANY non-public address among
 * its answers, is refused.
 */
export async function resolveTarget(
  url: URL,
  options: { allowedHosts: readonly AllowedHost[]; resolve: Resolver },
): Promise<Target> {
  const trusted = isAllowListed(url, options.allowedHosts);
  const hostname = url.hostname;
  if (isIpLiteral(hostname)) {
    const bare = hostname.replace(/^\[|\]$/g, '');
    const reason = trusted ? undefined : refusedAddress(bare);
    if (reason) return { ok: false, reason };
    return { ok: true, hostname: bare, addresses: [{ address: bare, family: hostname.startsWith('[') ? 6 : 4 }] };
  }
  if (!trusted) {
    const reason = refusedName(hostname);
    if (reason) return { ok: false, reason };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await options.resolve(hostname);
  } catch {
    return { ok: false, reason: 'unresolved' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'unresolved' };
  if (!trusted) {
    for (const { address } of addresses) {
      const reason = refusedAddress(address);
      if (reason) return { ok: false, reason };
    }
  }
  return { ok: true, hostname, addresses };
}
