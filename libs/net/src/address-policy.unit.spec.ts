import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  isAllowListed,
  parseAllowedHosts,
  refusedAddress,
  refusedUrlHost,
  type RefusalReason,
} from './address-policy.js';

/** [URL as a platform would send it, why it is refused]: every encoding from the report and more. */
const REFUSED: [string, RefusalReason][] = [
  // Cloud metadata, in every spelling.
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://[::ffff:a9fe:a9fe]/', 'metadata'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://2852039166/', 'metadata'],
  ['http://0xa9fea9fe/', 'metadata'],
  ['http://0251.0376.0251.0376/', 'metadata'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'metadata'],
  ['http://[2002:a9fe:a9fe::1]/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://METADATA.google.internal./', 'metadata'],
  ['http://metadata/', 'metadata'],
  // Loopback.
  ['http://127.0.0.1:8080/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://017700000001/', 'loopback'],
  ['http://127.0.0.1./', 'loopback'],
  ['http://127.255.255.254/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[::ffff:0:7f00:1]/', 'loopback'],
  ['http://[64:ff9b::127.0.0.1]/', 'loopback'],
  ['http://[2002:7f00:1::]/', 'loopback'],
  ['http://localhost:3000/', 'localName'],
  ['http://LOCALHOST./', 'localName'],
  ['http://api.localhost/', 'localName'],
  ['http://intranet/', 'localName'],
  ['http://printer.local/', 'localName'],
  ['http://db.internal/', 'localName'],
  // Private (RFC 1918, IPv6 unique local and site local).
  ['http://10.0.0.1/', 'private'],
  ['http://0xa000001/', 'private'],
  ['http://10.1/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://3232235777/', 'private'],
  ['http://[::ffff:192.168.1.1]/', 'private'],
  ['http://[fc00::1]/', 'private'],
  ['http://[fd12:3456:789a::1]/', 'private'],
  ['http://[fec0::1]/', 'private'],
  // Link-local.
  ['http://169.254.0.1/', 'linkLocal'],
  ['http://[fe80::1]/', 'linkLocal'],
  ['http://[febf::1]/', 'linkLocal'],
  // Carrier-grade NAT (also Alibaba's metadata address).
  ['http://100.64.0.1/', 'carrierGradeNat'],
  ['http://100.100.100.200/', 'carrierGradeNat'],
  ['http://100.127.255.255/', 'carrierGradeNat'],
  // Multicast, unspecified, broadcast.
  ['http://224.0.0.1/', 'multicast'],
  ['http://239.255.255.250/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://0.1.2.3/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://[::ffff:0.0.0.0]/', 'unspecified'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://0xffffffff/', 'broadcast'],
  // Reserved, documentation and transition forms that are not public.
  ['http://240.0.0.1/', 'reserved'],
  ['http://192.0.0.192/', 'reserved'],
  ['http://192.0.2.1/', 'reserved'],
  ['http://198.18.0.1/', 'reserved'],
  ['http://[2001:db8::1]/', 'reserved'],
  ['http://[::127.0.0.1]/', 'reserved'],
  ['http://[::8.8.8.8]/', 'reserved'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'reserved'],
  ['http://[64:ff9b:1::a00:1]/', 'reserved'],
  ['http://[100::1]/', 'reserved'],
  ['http://[4000::1]/', 'reserved'],
];

const PUBLIC = [
  'https://hooks.example.com/in',
  'https://93.184.216.34/',
  'https://8.8.8.8:8443/',
  'https://134744072/',
  'https://[2606:4700:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://[64:ff9b::808:808]/',
  'https://[2002:808:808::1]/',
  'https://100.128.0.1/',
  'https://100.63.255.255/',
  'https://172.32.0.1/',
  'https://169.255.0.1/',
  'https://11.0.0.1/',
  'https://192.169.0.1/',
  'https://hooks.localhost.example.com/',
  'https://internal.example.com/',
];

describe('webhook address policy: SSRF matrix', () => {
  it.each(REFUSED)('refuses %s (%s) without an allow-list', (url, reason) => {
    expect(refusedUrlHost(new URL(url), [])).toBe(reason);
  });

  it.each(REFUSED)('allows %s once its host is allow-listed, by host and by host:port', (url) => {
    const parsed = new URL(url);
    expect(refusedUrlHost(parsed, parseAllowedHosts([parsed.host]))).toBeUndefined();
    const port = parsed.port || '80';
    expect(refusedUrlHost(parsed, parseAllowedHosts([`${parsed.hostname}:${port}`]))).toBeUndefined();
    // Another host or another port on the list does not help.
    const others = parseAllowedHosts(['hooks.example.com', `${parsed.hostname}:1`]);
    expect(refusedUrlHost(parsed, others)).toBe(refusedUrlHost(parsed, []));
  });

  it.each(PUBLIC)('allows the public destination %s', (url) => {
    expect(refusedUrlHost(new URL(url), [])).toBeUndefined();
  });

  it('matches allow-list entries in any spelling of the same address', () => {
    const allowed = parseAllowedHosts(['0x7f000001', '[::FFFF:a9fe:a9fe]:8080', 'LocalHost']);
    expect(allowed).toEqual([
      { hostname: '127.0.0.1' },
      { hostname: '[::ffff:a9fe:a9fe]', port: 8080 },
      { hostname: 'localhost' },
    ]);
    expect(isAllowListed(new URL('http://127.1:9/'), allowed)).toBe(true);
    expect(isAllowListed(new URL('http://[::ffff:169.254.169.254]:8080/'), allowed)).toBe(true);
    expect(isAllowListed(new URL('http://[::ffff:169.254.169.254]:8081/'), allowed)).toBe(false);
    expect(isAllowListed(new URL('http://localhost./'), allowed)).toBe(true);
    // host:port compares with the scheme's default port.
    const https = parseAllowedHosts(['hooks.example.com:443']);
    expect(isAllowListed(new URL('https://hooks.example.com/'), https)).toBe(true);
    expect(isAllowListed(new URL('http://hooks.example.com/'), https)).toBe(false);
  });

  it('refuses allow-list entries that are not a host or host:port', () => {
    const bad = ['http://example.com', 'example.com/path', 'user@example.com', 'example.com:99999', '::1', 'a b.com'];
    for (const entry of bad) {
      expect(() => parseAllowedHosts([entry])).toThrow(entry);
    }
  });

  it('classifies resolved addresses as DNS returns them', () => {
    expect(refusedAddress('169.254.169.254')).toBe('metadata');
    expect(refusedAddress('::ffff:169.254.169.254')).toBe('metadata');
    expect(refusedAddress('fd00:ec2::254')).toBe('metadata');
    expect(refusedAddress('fe80::1%eth0')).toBe('linkLocal');
    expect(refusedAddress('10.0.0.7')).toBe('private');
    expect(refusedAddress('::1')).toBe('loopback');
    expect(refusedAddress('93.184.216.34')).toBeUndefined();
    expect(refusedAddress('2606:4700:4700::1111')).toBeUndefined();
    // Only canonical forms are addresses here; the URL parser normalises the rest first.
    expect(refusedAddress('0x7f000001')).toBe('notAnAddress');
    expect(refusedAddress('example.com')).toBe('notAnAddress');
  });

  it('gives every spelling of any IPv4 address the verdict of its dotted form', () => {
    const spellings = (ip: string) => {
      const octets = ip.split('.').map(Number);
      const n = ((octets[0] << 24) >>> 0) + (octets[1] << 16) + (octets[2] << 8) + octets[3];
      const hex = (a: number, b: number) => ((a << 8) + b).toString(16);
      return [
        String(n),
        `0x${n.toString(16)}`,
        octets.map((o) => `0${o.toString(8)}`).join('.'),
        `${octets[0]}.${(octets[1] << 16) + (octets[2] << 8) + octets[3]}`,
        `${ip}.`,
        `[::ffff:${ip}]`,
        `[::ffff:${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}]`,
        `[64:ff9b::${ip}]`,
        `[2002:${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}::1]`,
      ];
    };
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const verdict = refusedAddress(ip);
        for (const host of spellings(ip)) {
          expect({ host, verdict: refusedUrlHost(new URL(`http://${host}/`), []) }).toEqual({ host, verdict });
        }
      }),
      { numRuns: 500 },
    );
  });
});
