import { describe, expect, it } from '@jest/globals';
import { PlatformClocks } from '#application/command-context.js';
import { systemClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { startTestService, type TestService } from '../support/service.js';
import { useDataDir } from '../support/fixture.js';

const HOUR = 3_600_000;

describe('sandbox clock', () => {
  let t: TestService | undefined;
  const dataDir = useDataDir('payments-clock-', () => t?.close());

  it('advances for every process and survives a restart', async () => {
    // The service's own clock: real time plus the persisted offset.
    t = await startTestService({ dataDir });
    const before = await t.api.get('/sandbox/clock');
    expect(before.body.offsetMs).toBe(0);
    const advanced = await t.api.post('/sandbox/clock/advance', { seconds: 3_600 });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ offsetMs: HOUR, promotedJobs: expect.any(Number) });
    expect(Date.parse(advanced.body.now) - Date.now()).toBeGreaterThan(HOUR - 60_000);
    expect((await t.api.post('/sandbox/clock/advance', { milliseconds: 500 })).body.offsetMs).toBe(HOUR + 500);
    const platformId = t.service.sandbox!.platformId;
    const events = await t.service.infra.eventStore.readStream(streams.sandboxClock(platformId));
    expect(events.map((e) => (e.data as { offsetMs: number }).offsetMs)).toEqual([HOUR, HOUR + 500]);

    // Another process (its own clocks on the same log) follows the persisted offset.
    const other = new PlatformClocks(t.service.infra.eventStore, systemClock);
    expect(await other.offsetMs(platformId)).toBe(HOUR + 500);
    expect(await other.offsetMs(platformId)).toBe(HOUR + 500);

    await t.close();
    t = await startTestService({ dataDir });
    const after = await t.api.get('/sandbox/clock');
    expect(after.body.offsetMs).toBe(HOUR + 500);
    expect(Date.parse(after.body.now) - Date.now()).toBeGreaterThan(HOUR - 60_000);
  });

  it('validates the request and is for sandbox platforms only', async () => {
    const api = t!.api;
    for (const body of [
      {},
      { seconds: 1, milliseconds: 1 },
      { seconds: 0 },
      { seconds: 1.5 },
      { seconds: 400 * 86_400 },
      { minutes: 1 },
    ]) {
      const res = await api.post('/sandbox/clock/advance', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const production = await t!.otherPlatform({ sandbox: false });
    const refused = await production.api.post('/sandbox/clock/advance', { seconds: 1 });
    expect(refused.status).toBe(403);
  });
});
