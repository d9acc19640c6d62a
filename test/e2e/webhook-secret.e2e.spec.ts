import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { basicAuth, client } from '../support/service.js';
import { useTestService } from '../support/fixture.js';
import type { ReceivedRequest } from '../support/webhook-receiver.js';

const DAY_SECONDS = 86_400;

/** Whether Standard Webhooks verification with `secret` accepts the delivery. */
function verifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** The webhook secret: shown only to tokens that may manage the configuration, and rotated with a grace period. */
describe('webhook secret', () => {
  const t = useTestService();

  it('is not shown to a VIEW token; MANAGE sees it and can rotate it', async () => {
    const p = await t.webhookPlatform();
    const token = async (permissions: string[]) => {
      const created = (await p.api.post('/tokens', { name: permissions.join('+'), permissions })).body;
      return client(t.url, basicAuth(created.clientId, created.clientSecret));
    };
    const viewer = await token(['VIEW']);
    const payer = await token(['VIEW', 'TRANSACT']);
    const manager = await token(['VIEW', 'MANAGE']);

    const seen = await viewer.get('/config');
    expect(seen.status).toBe(200);
    expect(seen.body.webhookSigningPublicKey).toMatch(/BEGIN PUBLIC KEY/);
    expect(seen.body).not.toHaveProperty('webhookSecret');
    expect(JSON.stringify(seen.body)).not.toContain('whsec_');
    expect(JSON.stringify((await payer.get('/config')).body)).not.toContain('whsec_');
    expect((await manager.get('/config')).body.webhookSecret).toMatch(/^whsec_/);

    const refused = await viewer.post('/config/webhook-secret/rotate', {});
    expect(refused).toMatchObject({ status: 403, body: { status: 403, code: 'FORBIDDEN' } });
  });

  it('rotates: deliveries verify with the new and the old secret during grace, then only with the new', async () => {
    const p = await t.webhookPlatform();
    const old = (await p.api.get('/config')).body.webhookSecret as string;
    const platformNow = Date.parse((await p.api.get('/sandbox/clock')).body.now);

    const key = { 'idempotency-key': 'rotate-1' };
    const rotated = await p.api.post('/config/webhook-secret/rotate', {}, key);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.webhookSecret as string;
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.body.previousSecretValidUntil)).toBe(platformNow + DAY_SECONDS * 1000);
    expect((await p.api.get('/config')).body.webhookSecret).toBe(fresh);
    // A replay does not show the secret again.
    const replay = await p.api.post('/config/webhook-secret/rotate', {}, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ previousSecretValidUntil: rotated.body.previousSecretValidUntil });
    expect((await p.api.get('/config')).body.webhookSecret).toBe(fresh);
    // The rotation is an event of the platform's webhook configuration, with its actor, holding no secret in clear.
    const events = (await t.service.infra.eventStore.readAll()).filter(
      (e) => e.type === 'WebhookSecretRotated' && e.metadata.platformId === p.platformId,
    );
    expect(events).toHaveLength(1);
    expect(events[0].metadata.actor).toMatch(/^ApiToken:/);
    const recorded = JSON.stringify(events[0].data);
    for (const secret of [old, fresh]) expect(recorded).not.toContain(secret.slice('whsec_'.length));

    const send = async () => {
      const before = p.receiver.requests.length;
      expect((await p.api.post('/sandbox/webhooks/test', {})).status).toBe(200);
      await p.receiver.waitFor((r) => r.length > before, 5_000, 'the test webhook');
      return p.receiver.requests[p.receiver.requests.length - 1];
    };
    const during = await send();
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(fresh, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);

    // Just before the grace period ends the old secret still signs; once it has passed, only the new one.
    expect((await p.api.post('/sandbox/clock/advance', { seconds: DAY_SECONDS - 60 })).status).toBe(200);
    expect(verifies(old, await send())).toBe(true);
    expect((await p.api.post('/sandbox/clock/advance', { seconds: 61 })).status).toBe(200);
    const after = await send();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(old, after)).toBe(false);
  });

  it('is refused with 400 before webhooks were ever configured', async () => {
    const p = await t.otherPlatform();
    const early = await p.api.post('/config/webhook-secret/rotate', {});
    expect(early).toMatchObject({ status: 400, body: { status: 400, code: 'WEBHOOK_ENDPOINT_NOT_SET' } });
  });
});
