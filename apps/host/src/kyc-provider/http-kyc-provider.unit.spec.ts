import { describe, expect, it } from '@jest/globals';
import { verifyProcessorSignature } from '#domain/cards/card-processor.js';
import { ManualClock } from '#domain/clock.js';
import type { KycSubmission } from '#application/verifications/kyc-provider.js';
import { HttpKycProvider } from './http-kyc-provider.js';

const SECRET = 'kps_unit_secret';
const NOW = Date.UTC(2026, 4, 4, 9);
const submission: KycSubmission = {
  type: 'KYC_REVIEW.SUBMITTED',
  platformId: 'Platform:00000000-0000-4000-8000-000000000001',
  submittedAt: new Date(NOW).toISOString(),
  callbackPath: '/kyc-provider/callback',
  review: { id: 'Verification:00000000-0000-4000-8000-000000000003', status: 'PENDING' },
};

describe('the HTTP KYC provider', () => {
  it('POSTs the submission signed with the shared secret (the callback’s own scheme)', async () => {
    const sent: { url: string; body: string; headers: Record<string, string> }[] = [];
    const provider = new HttpKycProvider({
      wallClock: new ManualClock(NOW),
      allowedHosts: [],
      post: async (url, body, headers) => {
        sent.push({ url, body, headers });
        return { statusCode: 202, latencyMs: 1 };
      },
    });
    const result = await provider.submit({ url: 'https://kyc.example.com/in', secret: SECRET }, submission);
    expect(result).toEqual({ accepted: true });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body)).toEqual(submission);
    expect(sent[0].headers['content-type']).toBe('application/json');
    const check = verifyProcessorSignature({
      header: sent[0].headers['x-kyc-provider-signature'],
      secret: SECRET,
      rawBody: Buffer.from(sent[0].body),
      nowSeconds: NOW / 1000,
    });
    expect(check).toEqual({ valid: true });
  });

  it('reports a refusal or an unreachable provider without throwing', async () => {
    const answering = (statusCode?: number) =>
      new HttpKycProvider({
        allowedHosts: [],
        post: async () => ({ statusCode, latencyMs: 1, cause: 'connect ECONNREFUSED' }),
      });
    const endpoint = { url: 'https://kyc.example.com/in', secret: SECRET };
    expect(await answering(500).submit(endpoint, submission)).toEqual({ accepted: false, detail: 'HTTP 500' });
    expect(await answering(undefined).submit(endpoint, submission)).toEqual({
      accepted: false,
      detail: 'connect ECONNREFUSED',
    });
  });
});
