import ipaddr from 'ipaddr.js';

/**
 * Which network destinations the service may send requests to on a platform's behalf (webhooks).
 * Pure: no DNS, no sockets. URLs are parsed with the WHATWG parser, which already turns every IPv4
 * spelling (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`, a trailing dot) into dotted decimal
 * and compresses IPv6; `ipaddr.js` then classifies the address. Only global unicast addresses pass,
 * so anything new or odd is refused rather than allowed.
 */

/** An operator-trusted destination (`WEBHOOK_ALLOWED_HOSTS`): a hostname, optionally with one port. */
export interface AllowedHost {
  /** As the WHATWG parser normalises it (lower case, IPv4 dotted, IPv6 in brackets). */
  hostname: string;
  port?: number;
}

/** Why a destination is refused; absent when it may be contacted. */
export type RefusalReason =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'localName'
  | 'notAnAddress';

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2:0:0:0:0:0:254']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

const IPV4_REASONS: Record<string, RefusalReason> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'linkLocal',
  carrierGradeNat: 'carrierGradeNat',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};
const IPV6_REASONS: Record<string, RefusalReason> = {
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'linkLocal',
  multicast: 'multicast',
  unspecified: 'unspecified',
};
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

function classifyV4(address: ipaddr.IPv4): RefusalReason | undefined {
  if (METADATA_ADDRESSES.has(address.toString())) return 'metadata';
  const range = address.range();
  if (range === 'unicast') return undefined;
  return IPV4_REASONS[range] ?? 'reserved';
}

/** The IPv4 address an IPv6 form carries (mapped, translated, NAT64 well-known prefix, 6to4), if any. */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const low = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return low(p[6], p[7]);
  if (address.match(NAT64_WELL_KNOWN)) return low(p[6], p[7]);
  if (range === '6to4') return low(p[1], p[2]);
  return undefined;
}

function classifyV6(address: ipaddr.IPv6): RefusalReason | undefined {
  if (address.zoneId) return 'linkLocal';
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return 'metadata';
  const embedded = embeddedV4(address);
  if (embedded) return classifyV4(embedded);
  const range = address.range();
  const named = IPV6_REASONS[range];
  if (named) return named;
  // ::/96 (deprecated IPv4-compatible), Teredo, documentation, NAT64 local use, unassigned space...
  if (address.match(IPV4_COMPATIBLE) || range !== 'unicast' || !address.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}

/** Classifies one IP address (dotted IPv4 or IPv6, with or without brackets); undefined: a public address. */
export function refusedAddress(ip: string): RefusalReason | undefined {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // Only canonical forms: the URL parser has normalised IPv4 already, DNS answers are canonical.
    if (ipaddr.IPv4.isValidFourPartDecimal(bare)) parsed = ipaddr.IPv4.parse(bare);
    else if (ipaddr.IPv6.isValid(bare)) parsed = ipaddr.IPv6.parse(bare);
    else return 'notAnAddress';
  } catch {
    return 'notAnAddress';
  }
  return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

/** Whether a URL hostname is an IP literal (what the WHATWG parser leaves: dotted IPv4 or `[IPv6]`). */
export function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(hostname);
}

/** Names that always mean this machine, its network or a cloud metadata service. */
export function refusedName(hostname: string): RefusalReason | undefined {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (METADATA_NAMES.has(name)) return 'metadata';
  // Single-label names (`localhost`, `intranet`) resolve through the local hosts file and search domains.
  if (!name.includes('.') || name.endsWith('.localhost')) return 'localName';
  // RFC 6762 and ICANN's private-use TLD: never a public receiver.
  if (name.endsWith('.local') || name.endsWith('.internal') || name.endsWith('.home.arpa')) return 'localName';
  return undefined;
}

/** What the URL's host says before any DNS lookup: an IP literal is decided here, a name only if it is a local name. */
export function refusedHost(hostname: string): RefusalReason | undefined {
  return isIpLiteral(hostname) ? refusedAddress(hostname) : refusedName(hostname);
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The port a URL connects to. */
export function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : (DEFAULT_PORT[url.protocol] ?? 0);
}

/**
 * Parses `WEBHOOK_ALLOWED_HOSTS` entries (`host` or `host:port`, IPv6 in brackets), normalised like
 * URL hosts so `127.1` and `127.0.0.1` are one entry. Throws on anything else (paths, credentials).
 */
export function parseAllowedHosts(entries: readonly string[]): AllowedHost[] {
  return entries.map((entry) => {
    let url: URL;
    try {
      url = new URL(`http://${entry}`);
    } catch {
      throw new Error(`"${entry}" is not a host or host:port`);
    }
    const extra = url.username || url.password || url.pathname !== '/' || url.search || url.hash;
    if (extra || entry.includes('/') || entry.includes('@')) throw new Error(`"${entry}" is not a host or host:port`);
    const explicitPort = /:\d+$/.test(entry) ? Number(entry.slice(entry.lastIndexOf(':') + 1)) : undefined;
    if (explicitPort !== undefined && (explicitPort < 1 || explicitPort > 65535)) {
      throw new Error(`"${entry}" has an invalid port`);
    }
    return explicitPort === undefined ? { hostname: url.hostname } : { hostname: url.hostname, port: explicitPort };
  });
}

/** Whether the URL's host (and port, when the entry names one) is on the allow-list. */
export function isAllowListed(url: URL, allowed: readonly AllowedHost[]): boolean {
  const hostname = url.hostname.replace(/\.+$/, '');
  const port = effectivePort(url);
  return allowed.some((entry) => entry.hostname.replace(/\.+$/, '') === hostname && (entry.port ?? port) === port);
}

/**
 * The configuration-time check of a webhook URL's host: refused when it is a non-public IP literal
 * (in any spelling) or a local or metadata name, unless allow-listed. Names are checked again after
 * DNS resolution at delivery time.
 */
export function refusedUrlHost(url: URL, allowed: readonly AllowedHost[]): RefusalReason | undefined {
  if (isAllowListed(url, allowed)) return undefined;
  return refusedHost(url.hostname);
}
