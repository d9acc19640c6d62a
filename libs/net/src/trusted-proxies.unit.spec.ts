import { describe, expect, it } from '@jest/globals';
import { clientAddressOf, parseTrustedProxies } from './trusted-proxies.js';

describe('client address behind trusted proxies', () => {
  const proxies = parseTrustedProxies(['10.0.0.0/8', '192.0.2.10', '2001:db8::/32']);

  it('refuses what is neither an address nor a CIDR range', () => {
    for (const bad of ['10.0.0.0/33', 'proxy.example', '10.0.0', '::1/129'])
      expect(() => parseTrustedProxies([bad])).toThrow(/not an address or CIDR/);
  });

  it('ignores forwarding headers from a peer that is not trusted', () => {
    expect(clientAddressOf('198.51.100.1', { 'x-forwarded-for': '203.0.113.5' }, proxies)).toBe('198.51.100.1');
    expect(clientAddressOf('::ffff:10.1.1.1', { 'x-forwarded-for': '203.0.113.5' }, [])).toBe('10.1.1.1');
  });

  it('takes the right-most address that is not a trusted proxy', () => {
    const via = (xff: string) => clientAddressOf('::ffff:10.1.1.1', { 'x-forwarded-for': xff }, proxies);
    expect(via('203.0.113.5')).toBe('203.0.113.5');
    expect(via('1.1.1.1, 203.0.113.5, 10.2.2.2, 192.0.2.10')).toBe('203.0.113.5');
    expect(via('10.3.3.3')).toBe('10.3.3.3');
    expect(via('garbage, 203.0.113.5')).toBe('203.0.113.5');
    expect(via('203.0.113.5, unknown')).toBe('10.1.1.1');
    expect(via('')).toBe('10.1.1.1');
  });

  it('reads RFC 7239 Forwarded before X-Forwarded-For', () => {
    const via = (forwarded: string) =>
      clientAddressOf('10.1.1.1', { forwarded, 'x-forwarded-for': '198.51.100.9' }, proxies);
    expect(via('for=203.0.113.5;proto=https')).toBe('203.0.113.5');
    expect(via('for="[2001:4860::1]:4711", for=10.2.2.2')).toBe('2001:4860::1');
    expect(via('For="203.0.113.7:8080"')).toBe('203.0.113.7');
    expect(via('for=_hidden')).toBe('10.1.1.1');
    expect(via('for=198.51.100.1, proto=https')).toBe('10.1.1.1');
  });
});
