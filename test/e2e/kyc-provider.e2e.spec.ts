import { describe, expect, it } from '@jest/globals';
import { processorSignature } from '#domain/cards/card-processor.js';
import { useTestService } from '../support/fixture.js';
import type { Client } from '../support/service.js';
import { individual, reviewDecisionEntry, submit } from './kyc-review-support.js';

const SECRET = 'kps_shared_secret_for_tests';
/** A provider that cannot be reached (a closed port): the review then waits for an operator. */
const UNREACHABLE = 'https://127.0.0.1:9/kyc/submissions';

/** The KYC provider's signed callback decides a review as an operator would; a bad signature changes nothing. */
describe('KYC provider callback', () => {
  const t = useTestService();

  const callback = (
    platformId: string,
    body: Record<string, unknown>,
    {
      secret = SECRET,
      at = Math.floor(t.clock.now().getTime() / 1000),
      sig,
    }: { secret?: string; at?: number; sig?: string } = {},
  ) => {
    const raw = JSON.stringify(body);
    return t.anonymous.post('/kyc-provider/callback', raw, {
      'content-type': 'application/json',
      'x-kyc-provider-platform': platformId,
      'x-kyc-provider-signature': sig ?? `t=${at},v1=${processorSignature(secret, at, raw)}`,
    });
  };
  const provided = async (): Promise<{ platformId: string; api: Client }> => {
    const prod = await t.otherPlatform({ sandbox: false });
    const set = await prod.api.request('PUT', '/config/kyc-provider', { url: UNREACHABLE, secret: SECRET });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ configured: true, url: UNREACHABLE, secretSet: true });
    expect(JSON.stringify(set.body)).not.toContain(SECRET);
    return prod;
  };

  it('is for production platforms only', async () => {
    const sandbox = await t.otherPlatform();
    const refused = await sandbox.api.request('PUT', '/config/kyc-provider', { url: UNREACHABLE, secret: SECRET });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 400,
      code: 'KYC_PROVIDER_NOT_FOR_SANDBOX',
    });
    expect((await sandbox.api.get('/config/kyc-provider')).body).toMatchObject({ configured: false });
  });

  it('refuses a bad, stale or foreign signature with 401 and decides nothing', async () => {
    const prod = await provided();
    const customer = await individual(prod.api);
    const review = await submit(prod.api, customer.id);
    const body = { reviewId: review.id, decision: 'APPROVED' };
    const wrong = await callback(prod.platformId, body, { secret: 'not-the-secret' });
    expect({ status: wrong.status, code: wrong.body.code }).toEqual({
      status: 401,
      code: 'KYC_PROVIDER_SIGNATURE_INVALID',
    });
    expect((await callback(prod.platformId, body, { sig: 'v1=abc' })).status).toBe(401);
    const stale = Math.floor(t.clock.now().getTime() / 1000) - 301;
    expect((await callback(prod.platformId, body, { at: stale })).status).toBe(401);
    const other = await provided();
    expect((await callback(other.platformId, body)).status).toBe(404);
    const noProvider = await t.otherPlatform({ sandbox: false });
    expect((await callback(noProvider.platformId, body)).status).toBe(401);
    expect((await prod.api.get(`/verifications/reviews/${review.id}`)).body.status).toBe('PENDING');
    expect((await prod.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('PENDING');
  });

  it('decides the review with a good signature, as the provider, once', async () => {
    const prod = await provided();
    const customer = await individual(prod.api);
    const review = await submit(prod.api, customer.id);
    expect((await prod.api.get(`/verifications/reviews/${review.id}`)).body.status).toBe('PENDING');
    const noReason = await callback(prod.platformId, { reviewId: review.id, decision: 'REJECTED' });
    expect(noReason.status).toBe(400);
    const approved = await callback(prod.platformId, { reviewId: review.id, decision: 'APPROVED', reason: 'clear' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: review.id, status: 'APPROVED', decidedBy: 'system:kyc-provider' });
    expect((await prod.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');
    expect(await reviewDecisionEntry(prod.api, customer.id)).toMatchObject({
      actor: 'system:kyc-provider',
      changes: { decision: 'APPROVED', reason: 'clear', decidedBy: 'system:kyc-provider' },
    });
    const again = await callback(prod.platformId, { reviewId: review.id, decision: 'REJECTED', reason: 'late' });
    expect(again.status).toBe(409);
    expect((await prod.api.delete('/config/kyc-provider')).body).toMatchObject({ configured: false });
    expect((await callback(prod.platformId, { reviewId: review.id, decision: 'APPROVED' })).status).toBe(401);
  });
});
