import { describe, expect, it } from '@jest/globals';
import { SecretBox } from '#crypto/secret-box.js';
import { ManualClock } from '#domain/clock.js';
import { SequentialIds } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { MemoryEventStore } from '#event-store/memory/event-store.js';
import { CommandRunner } from '../command-runner.js';
import { PlatformClocks } from '../command-context.js';
import { IdempotencyService } from './idempotency-service.js';

const PLATFORM = 'Platform:00000000-0000-4000-8000-0000000000aa';
const actor = { platformId: PLATFORM, actor: 'test', correlationId: 'test' };
const request = { method: 'POST', path: '/quotes', body: { amount: 1 } };

async function setup() {
  const store = new MemoryEventStore();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const runner = new CommandRunner(store, undefined);
  await runner.run(
    `platform-${PLATFORM.split(':')[1]}`,
    platformDecider,
    {
      type: 'CreatePlatform',
      platformId: PLATFORM,
      name: 'p',
      sandbox: false,
      umaDomain: 'p.test',
      settlementAccounts: [],
      now: clock.now().toISOString(),
    },
    { metadata: actor, answersAfter: 'append' },
  );
  const service = new IdempotencyService(
    runner,
    new PlatformClocks(store, clock),
    new SequentialIds(),
    new SecretBox(Buffer.alloc(32, 7)),
  );
  return { clock, service };
}

describe('IdempotencyService', () => {
  it('lets no duplicate take over a key whose request runs in this process, whatever the clock did', async () => {
    const { clock, service } = await setup();
    const first = await service.begin(actor, 'key-1', request);
    expect(first.kind).toBe('run');
    // The clock moves past the first claim's lease while its request runs (a sandbox clock moved forward).
    clock.advance(10 * 60_000);
    const second = service.begin(actor, 'key-1', request);
    let answered = false;
    void second.then(() => (answered = true));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    if (first.kind === 'run') await first.complete({ status: 201, body: { id: 'Quote:1' } });
    expect(await second).toEqual({ kind: 'replay', response: { status: 201, body: { id: 'Quote:1' } } });
  });
});
