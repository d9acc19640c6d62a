import ipaddr from 'ipaddr.js';

/** Proxies whose forwarding headers are believed (`TRUSTED_PROXIES`): addresses and CIDR ranges. */
export type TrustedProxies = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** A plain address: dotted-quad IPv4 or IPv6 (no shorthand such as `10.1` or `0x0a000001`). */
const isPlainAddress = (s: string) => ipaddr.IPv4.isValidFourPartDecimal(s) || ipaddr.IPv6.isValid(s);

/** Parses addresses and CIDRs (`10.0.0.0/8`, `::1`); throws naming the first that is neither. */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  return entries.map((entry) => {
    if (entry.includes('/')) {
      try {
        if (!isPlainAddress(entry.slice(0, entry.indexOf('/')))) throw new Error('not plain');
        return ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`"${entry}" is not an address or CIDR range`);
      }
    }
    if (!isPlainAddress(entry)) throw new Error(`"${entry}" is not an address or CIDR range`);
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128] as const;
  }) as unknown as TrustedProxies;
}

const parsed = (raw: string | undefined) => (raw && isPlainAddress(raw) ? ipaddr.process(raw) : undefined);

function trusted(address: ipaddr.IPv4 | ipaddr.IPv6, proxies: TrustedProxies): boolean {
  return proxies.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** One `for=` value of RFC 7239 (`192.0.2.1`, `"192.0.2.1:80"`, `"[2001:db8::1]:4711"`), without port. */
function forwardedFor(value: string): string {
  const v = value.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) return bracketed[1];
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(v);
  return v4port ? v4port[1] : v;
}

/** The hops a trusted proxy reported, nearest last: `Forwarded` (RFC 7239) when present, else `X-Forwarded-For`. */
function reportedHops(headers: Record<string, string | string[] | undefined>): string[] {
  const join = (h: string | string[] | undefined) => (Array.isArray(h) ? h.join(',') : (h ?? ''));
  const forwarded = join(headers.forwarded);
  if (forwarded.trim()) {
    const hops: string[] = [];
    for (const element of forwarded.split(',')) {
      const pair = element
        .split(';')
        .map((p) => p.trim())
        .find((p) => p.toLowerCase().startsWith('for='));
      // An element without `for=` names no address: nothing beyond it can be placed.
      hops.push(pair ? forwardedFor(pair.slice(4)) : '');
    }
    return hops;
  }
  return join(headers['x-forwarded-for'])
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
}

/**
 * The client's address: the direct peer's, unless the peer is a trusted proxy; then the right-most address of the
 * forwarding header that is not itself a trusted proxy (what the nearest trusted proxy saw; anything left of it may
 * be written by the client). An unparsable hop (`unknown`, an obfuscated name) ends the walk at the last address
 * known. Headers from an untrusted peer are ignored.
 */
export function clientAddressOf(
  peer: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  proxies: TrustedProxies,
): string | undefined {
  let address = parsed(peer);
  if (!address || proxies.length === 0 || !trusted(address, proxies)) return address?.toString() ?? peer;
  const hops = reportedHops(headers);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parsed(hops[i]);
    if (!hop) break;
    address = hop;
    if (!trusted(hop, proxies)) break;
  }
  return address.toString();
}
