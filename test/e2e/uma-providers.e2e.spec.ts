import { describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { walkPages } from '../support/pages.js';

const ALL_ASC = [
  'Aurora Pay',
  'Bharat Remit',
  'Desert Exchange',
  'Ipe Pagamentos',
  'Kapwa Padala',
  'Lagos Link',
  'Maple Transfer',
  'Norte Dinero',
  'Pacific Bridge',
  'Rhein Zahlungen',
  'Satoshi Street',
  'Thames Wallet',
];
const BLOCKED = ['Desert Exchange', 'Satoshi Street'];

describe('UMA providers over HTTP', () => {
  const t = useTestService();
  const api = t.api;

  const names = async (query: string) => {
    const res = await api.get(`/uma-providers${query ? `?${query}` : ''}`);
    expect(res.status).toBe(200);
    return res.body.data.map((p: any) => p.name) as string[];
  };

  it('lists every provider by name, descending by default, blocked ones included', async () => {
    const res = await api.get('/uma-providers');
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(12);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeUndefined();
    expect(res.body.data.map((p: any) => p.name)).toEqual([...ALL_ASC].reverse());
    const bridge = res.body.data.find((p: any) => p.name === 'Pacific Bridge');
    expect(bridge).toEqual({
      name: 'Pacific Bridge',
      supportedRegions: ['PH', 'MX', 'US'],
      domain: 'pacificbridge.example',
      logoUrl: 'https://pacificbridge.example/assets/logo.svg',
      supportedCurrencies: [
        { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
        { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
        { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
      ],
      lei: '549300B6BB73E0A6A672',
      allowListStatus: true,
    });
    for (const p of res.body.data) {
      expect(p.lei).toMatch(/^[A-Z0-9]{18}\d{2}$/);
      // ISO 17442 check digits: the LEI read as a base-36 number is 1 modulo 97.
      const digits = [...p.lei].map((ch: string) => parseInt(ch, 36).toString()).join('');
      expect(BigInt(digits) % 97n).toBe(1n);
      expect(p.allowListStatus).toBe(!BLOCKED.includes(p.name));
    }
  });

  it('sorts ascending on request', async () => {
    expect(await names('sortOrder=asc')).toEqual(ALL_ASC);
    expect(await names('sortOrder=desc')).toEqual([...ALL_ASC].reverse());
  });

  it('filters by countryCode, currencyCode and hasBlockedProviders, alone and combined', async () => {
    expect(await names('countryCode=MX')).toEqual(['Pacific Bridge', 'Norte Dinero']);
    expect(await names('countryCode=DE&sortOrder=asc')).toEqual(['Rhein Zahlungen', 'Satoshi Street']);
    expect(await names('currencyCode=EUR&sortOrder=asc')).toEqual(['Rhein Zahlungen', 'Thames Wallet']);
    expect(await names('currencyCode=USDC&sortOrder=asc')).toEqual(['Aurora Pay', 'Lagos Link']);
    expect(await names('currencyCode=JPY')).toEqual([]);
    expect(await names('countryCode=ZZ')).toEqual([]);
    expect(await names('hasBlockedProviders=false&sortOrder=asc')).toEqual(ALL_ASC.filter((n) => !BLOCKED.includes(n)));
    expect(await names('hasBlockedProviders=true&sortOrder=asc')).toEqual(ALL_ASC);
    expect(await names('countryCode=US&sortOrder=asc')).toEqual(['Aurora Pay', 'Pacific Bridge', 'Satoshi Street']);
    expect(await names('countryCode=US&hasBlockedProviders=false&sortOrder=asc')).toEqual([
      'Aurora Pay',
      'Pacific Bridge',
    ]);
    expect(await names('countryCode=US&currencyCode=USDC')).toEqual(['Aurora Pay']);
    const counted = await api.get('/uma-providers?currencyCode=USD&hasBlockedProviders=false&limit=1');
    expect(counted.body.totalCount).toBe(5);
  });

  it('paginates with opaque cursors in both orders: no gaps, no duplicates', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const pages = await walkPages(api, `/uma-providers?limit=5&sortOrder=${order}`);
      expect(pages.map((page) => page.totalCount)).toEqual([12, 12, 12]);
      const seen = pages.flatMap((page) => page.data.map((p) => p.name as string));
      expect(seen).toEqual(order === 'asc' ? ALL_ASC : [...ALL_ASC].reverse());
    }
    const filtered = await api.get('/uma-providers?hasBlockedProviders=false&limit=4&sortOrder=asc');
    const next = await api.get(
      '/uma-providers?hasBlockedProviders=false&limit=4&sortOrder=asc' +
        `&cursor=${encodeURIComponent(filtered.body.nextCursor)}`,
    );
    expect(next.body.data.map((p: any) => p.name)).toEqual([
      'Lagos Link',
      'Maple Transfer',
      'Norte Dinero',
      'Pacific Bridge',
    ]);
  });

  it('refuses invalid parameters, including cursors from another order', async () => {
    const descPage = await api.get('/uma-providers?limit=2');
    const cases: [string, string][] = [
      ['countryCode=mx', 'countryCode'],
      ['countryCode=MEX', 'countryCode'],
      ['currencyCode=usd', 'currencyCode'],
      ['hasBlockedProviders=maybe', 'hasBlockedProviders'],
      ['sortOrder=up', 'sortOrder'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${encodeURIComponent(descPage.body.nextCursor)}&sortOrder=asc`, 'cursor'],
      ['region=US', 'region'],
    ];
    for (const [query, field] of cases) {
      const res = await api.get(`/uma-providers?${query}`);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'INVALID_INPUT' });
      expect({ query, fields: res.body.details.errors.map((e: any) => e.field) }).toEqual({ query, fields: [field] });
    }
    expect((await t.anonymous.get('/uma-providers')).status).toBe(401);
  });
});
