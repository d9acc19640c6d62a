import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deviceCodeStream } from '#domain/agents/agent-claims.js';
import { agentStream } from '#domain/agents/agent.js';
import { money } from './money-support.js';
import { policy, useAgents } from './agents-support.js';

/** Whether any file of the data directory (event log, read models, jobs, their WAL) holds `text`. */
function stored(dataDir: string, text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  return readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((entry) => {
    try {
      return readFileSync(join(dataDir, entry)).includes(needle);
    } catch {
      return false; // a directory
    }
  });
}

/** Device codes are kept only as their hash: the plain code is in the answer that issues it and nowhere else. */
describe('agent device codes at rest', () => {
  const { t, api, a } = useAgents();

  it('stores no plain device code; status and redemption find the code by its hash', async () => {
    const customer = await money(t).customer(['USD']);
    const { agent, deviceCode } = await a.create(customer.id);
    const reissued = await api.post(`/agents/${agent.id}/device-codes`, {});
    expect(reissued.status).toBe(201);
    const code = reissued.body.code as string;
    expect(code).toMatch(/^PAY-AGENT-/);
    await t.service.infra.projections.waitForPosition(await t.service.infra.eventStore.headPosition(), 5_000);
    const events = JSON.stringify(
      (await t.service.infra.eventStore.readAll()).map(({ streamName, data }) => ({ streamName, data })),
    );
    for (const plain of [deviceCode.code, code]) {
      expect(events).not.toContain(plain);
      expect(stored(t.dataDir, plain)).toEqual([]);
    }

    const status = (c: string) => api.get(`/agents/device-codes/${c}/status`);
    expect((await status(code)).body).toEqual({ code, redeemed: false });
    expect((await a.redeem(deviceCode.code)).status).toBe(400); // replaced by the newer one
    const redeemed = await a.redeem(code);
    expect(redeemed.status).toBe(200);
    expect((await status(code)).body).toEqual({ code, redeemed: true });
    expect((await a.redeem(code)).status).toBe(400);
  });

  it('still redeems a code issued before codes were hashed (a plain code in the log)', async () => {
    const customer = await money(t).customer(['USD']);
    const { agent } = await a.create(customer.id);
    const platformId = t.service.sandbox!.platformId;
    const legacy = 'PAY-AGENT-2345-6789';
    const metadata = { platformId, actor: 'test:legacy', correlationId: 'legacy' };
    const store = t.service.infra.eventStore;
    await store.appendToStream(
      deviceCodeStream(legacy),
      [{ type: 'AgentKeyClaimed', data: { platformId, agentId: agent.id, kind: 'DEVICE_CODE' }, metadata }],
      { expectedRevision: 'no_stream' },
    );
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    await store.appendToStream(agentStream(agent.id), [
      {
        type: 'AgentDeviceCodeIssued',
        data: {
          platformId,
          agentId: agent.id,
          deviceCode: { code: legacy, expiresAt, redeemed: false },
          issuedAt: expiresAt,
        },
        metadata,
      },
    ]);
    // What the check of the first test looks for is found where it is stored.
    expect(stored(t.dataDir, legacy).length).toBeGreaterThan(0);
    expect((await api.get(`/agents/device-codes/${legacy}/status`)).body).toEqual({ code: legacy, redeemed: false });
    const redeemed = await a.redeem(legacy);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.agentId).toBe(agent.id);
    expect((await api.get(`/agents/device-codes/${legacy}/status`)).body).toEqual({ code: legacy, redeemed: true });
  });

  it('never replays a device code: the same Idempotency-Key answers without it', async () => {
    const customer = await money(t).customer(['USD']);
    const key = { 'idempotency-key': 'agent-once' };
    const body = { name: 'once', customerId: customer.id, policy: policy() };
    const first = await api.post('/agents', body, key);
    expect(first.status).toBe(201);
    const again = await api.post('/agents', body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const { code, ...shown } = first.body.deviceCode;
    expect(again.body).toEqual({ agent: first.body.agent, deviceCode: shown });
    expect(JSON.stringify(again.body)).not.toContain(code);

    const issueKey = { 'idempotency-key': 'code-once' };
    const issued = await api.post(`/agents/${first.body.agent.id}/device-codes`, {}, issueKey);
    expect(issued.status).toBe(201);
    const reissued = await api.post(`/agents/${first.body.agent.id}/device-codes`, {}, issueKey);
    expect(reissued.status).toBe(201);
    const { code: newCode, ...rest } = issued.body;
    expect(reissued.body).toEqual(rest);
    // Neither code is anywhere at rest, the stored answers included.
    for (const plain of [code, newCode]) expect(stored(t.dataDir, plain)).toEqual([]);
    expect((await a.redeem(newCode)).status).toBe(200);
  });
});
