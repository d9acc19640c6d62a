import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookVerifier } from '@payments-platform/client';
import { cli, startCli, type RunningCli } from '../support/cli.js';
import { useTestService, type WebhookPlatform } from '../support/fixture.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../support/webhook-receiver.js';
import { money } from './money-support.js';

const PAYMENT_TYPES = ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED'];

describe('listen: a platform’s webhooks forwarded from the log to a receiver on this machine', () => {
  const t = useTestService();
  /** The platform listened to; its endpoint is a receiver of its own, so the service's deliveries can be compared. */
  let a: WebhookPlatform;
  /** The developer's receiver `listen` forwards to (loopback: not allow-listed for the CLI). */
  let local: WebhookReceiver;
  let verifier: WebhookVerifier;

  beforeAll(async () => {
    a = await t.webhookPlatform();
    local = await startWebhookReceiver();
    const config = (await a.api.get('/config')).body;
    verifier = new WebhookVerifier({
      webhookSigningPublicKey: config.webhookSigningPublicKey,
      webhookSecret: config.webhookSecret,
    });
  });
  afterAll(() => local.close());

  const listen = async (...extra: string[]): Promise<RunningCli> => {
    const run = startCli(
      t.dataDir,
      'listen',
      '--platform',
      a.platformId,
      '--forward-to',
      local.url,
      '--json',
      ...extra,
    );
    await run.waitForLine((line) => line.includes('"ready"'), 30_000, 'ready line');
    return run;
  };
  const reports = (run: RunningCli) =>
    run.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
  const forwardedIds = (run: RunningCli) =>
    reports(run)
      .filter((r) => r.event === 'delivered')
      .map((r) => r.id);
  /** The webhooks the local receiver took (answered 2xx), in order. */
  const taken = () => local.requests.filter((r) => r.answered === 200);
  const takenIds = () => taken().map((r) => r.json!.id);
  /** Waits until the listener printed its line for every webhook the receiver took (they come after the answer). */
  const linesCaughtUp = (run: RunningCli) =>
    local.waitFor(() => forwardedIds(run).length >= new Set(takenIds()).size, 10_000, 'a line per webhook');
  const serviceIds = () => [...a.receiver.delivered().keys()];
  const hasAll = (requests: ReceivedRequest[], tx: string, types: string[]) =>
    types.every((type) => requests.some((r) => r.answered === 200 && r.json?.data?.id === tx && r.json.type === type));
  /** Waits until the local receiver took exactly what the service delivered to the platform's endpoint. */
  const sameAsService = () =>
    local.waitFor(
      () => JSON.stringify([...new Set(takenIds())].sort()) === JSON.stringify(serviceIds().sort()),
      20_000,
      'the webhooks the service delivered',
    );

  /** A customer's payment to an external account whose number ends with `suffix` (the sandbox's outcomes). */
  const payment = async (suffix: string, api = a.api) => {
    const { transactionId, customer } = await money(t, api).payout(suffix);
    return { tx: transactionId, customer };
  };

  it('forwards a payment’s webhooks signed as deliveries are; resumes with --from exactly after one', async () => {
    const first = await listen();
    const one = await payment('555');
    await a.receiver.waitFor((r) => hasAll(r, one.tx, PAYMENT_TYPES), 20_000, 'the service’s payment webhooks');
    await local.waitFor((r) => hasAll(r, one.tx, PAYMENT_TYPES), 20_000, 'the payment webhooks');
    await sameAsService();
    // Both signatures verify with the platform's keys; the same ids and envelopes as the service's deliveries.
    const delivered = a.receiver.delivered();
    for (const request of taken()) {
      const envelope = verifier.verify(request.body, request.headers);
      const theirs = delivered.get(envelope.id)![0].json!;
      expect({ type: envelope.type, timestamp: envelope.timestamp, id: envelope.data.id }).toEqual({
        type: theirs.type,
        timestamp: theirs.timestamp,
        id: theirs.data.id,
      });
    }
    // One line per webhook, in the order the receiver took them, with its status.
    await linesCaughtUp(first);
    expect(forwardedIds(first)).toEqual(takenIds());
    expect(reports(first).find((r) => r.type === 'OUTGOING_PAYMENT.COMPLETED')).toMatchObject({
      event: 'delivered',
      id: expect.stringMatching(/^Webhook:/),
      timestamp: expect.any(String),
      status: 200,
    });

    // Ctrl-C: a clean exit whose last line names the last webhook forwarded, as the state file does.
    expect(await first.stop()).toEqual({ status: 0, signal: null });
    const firstIds = forwardedIds(first);
    const last = firstIds[firstIds.length - 1];
    expect(JSON.parse(first.lines[first.lines.length - 1])).toEqual({
      event: 'stopped',
      forwarded: firstIds.length,
      last,
    });
    const stateFile = join(t.dataDir, 'listen', `${a.platformId.split(':')[1]}.json`);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).last.webhookId).toBe(last);

    // Missed while stopped, then forwarded on restart: exactly those, none twice.
    const two = await payment('555');
    await a.receiver.waitFor((r) => hasAll(r, two.tx, PAYMENT_TYPES), 20_000, 'the second payment at the service');
    const second = await listen('--from', last);
    await local.waitFor((r) => hasAll(r, two.tx, PAYMENT_TYPES), 20_000, 'the second payment');
    await sameAsService();
    expect(new Set(takenIds()).size).toBe(takenIds().length);
    expect(forwardedIds(second).filter((id) => firstIds.includes(id))).toEqual([]);
    expect(await second.stop()).toEqual({ status: 0, signal: null });

    // --from an older webhook than the state file's: found in the log, and again exactly what follows it.
    const secondIds = forwardedIds(second);
    const again = await listen('--from', firstIds[firstIds.length - 2]);
    await local.waitFor(
      () => forwardedIds(again).length > secondIds.length,
      20_000,
      'the webhooks after the older one',
    );
    expect(forwardedIds(again)).toEqual([last, ...forwardedIds(second)]);
    await again.stop();
  });

  it('follows the sandbox clock: a timer fired by an advance sends its webhooks, on the platform’s clock', async () => {
    // Readable lines this time: the readiness note goes to stderr.
    const run = startCli(t.dataDir, 'listen', '--platform', a.platformId, '--forward-to', local.url);
    await local.waitFor(() => run.stderr().includes('Ctrl-C stops'), 30_000, 'the listener to be ready');
    const returned = await payment('005');
    await local.waitFor((r) => hasAll(r, returned.tx, PAYMENT_TYPES), 20_000, 'the payment');
    expect((await a.api.post('/sandbox/clock/advance', { seconds: 300 })).status).toBe(200);
    const refund = ['OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_COMPLETED'];
    await local.waitFor((r) => hasAll(r, returned.tx, refund), 20_000, 'the return’s webhooks');
    const at = (type: string) => {
      const request = taken().find((r) => r.json!.data.id === returned.tx && r.json!.type === type)!;
      // Signed now (Standard Webhooks timestamps are real time), stamped on the platform's clock.
      verifier.verify(request.body, request.headers);
      return Date.parse(request.json!.timestamp);
    };
    expect(at('OUTGOING_PAYMENT.REFUND_PENDING')).toBeGreaterThanOrEqual(at('OUTGOING_PAYMENT.COMPLETED') + 300_000);
    await sameAsService();
    // One line per webhook: its timestamp (the platform's clock), type, id and the receiver's status.
    const pending = taken().find((r) => r.json!.type === 'OUTGOING_PAYMENT.REFUND_PENDING')!.json!;
    await run.waitForLine((line) => line.includes(pending.id), 10_000, 'the refund’s line');
    expect(run.lines).toContain(`${pending.timestamp}  OUTGOING_PAYMENT.REFUND_PENDING  ${pending.id}  [200]`);
    expect(await run.stop()).toEqual({ status: 0, signal: null });
    expect(run.lines[run.lines.length - 1]).toMatch(/^stopped after \d+ webhook\(s\); resume with --from Webhook:/);
  });

  it('forwards only its platform’s webhooks, and retries a failing receiver without changing the order', async () => {
    const other = await t.otherPlatform();
    const run = await listen();
    local.requests.length = 0;
    // The receiver is down for the first webhook, then answers it 503 once; later ones it takes.
    await local.setMode('refuse');
    const theirs = await payment('555', other.api);
    const ours = await payment('555');
    await run.waitForLine((line) => line.includes('"failed"'), 20_000, 'a failed attempt');
    let answered = 0;
    local.replyWith(() => (answered++ === 0 ? { status: 503 } : undefined));
    await local.setMode('ok');
    await local.waitFor((r) => hasAll(r, ours.tx, PAYMENT_TYPES), 20_000, 'the payment');
    local.replyWith(undefined);
    const foreign = [theirs.tx, theirs.customer.id, ...Object.values(theirs.customer.accounts)];
    expect(local.requests.filter((r) => foreign.some((id) => r.body.includes(id)))).toEqual([]);
    // Reported and retried with a doubling wait, the same webhook each time; none after it sent meanwhile.
    const failed = reports(run).filter((r) => r.event === 'failed');
    const unreachable = failed.slice(0, -1);
    expect(unreachable.length).toBeGreaterThan(0);
    expect(unreachable.every((r) => r.status === undefined && /ECONNREFUSED/.test(r.error))).toBe(true);
    expect(failed[failed.length - 1]).toMatchObject({ status: 503 });
    expect(failed.map((r) => r.id)).toEqual(failed.map(() => failed[0].id));
    expect(failed.map((r) => r.retryInMs)).toEqual(failed.map((_, i) => Math.min(250 * 2 ** i, 5000)));
    await linesCaughtUp(run);
    expect(forwardedIds(run)).toEqual(takenIds());
    expect(forwardedIds(run)[0]).toBe(failed[0].id);
    await run.stop();
  });

  it('refuses what it cannot run: no receiver, a URL that is not http, an unknown --from', async () => {
    const base = ['listen', '--platform', a.platformId];
    const noTarget = await cli(t.dataDir, ...base);
    expect({ status: noTarget.status, error: noTarget.stderr.split('\n')[0] }).toEqual({
      status: 2,
      error: 'error: listen needs --forward-to <url>',
    });
    expect((await cli(t.dataDir, ...base, '--forward-to', 'ftp://localhost/hooks')).status).toBe(2);
    const unknown = 'Webhook:00000000-0000-4000-8000-000000000000';
    const missing = await cli(t.dataDir, ...base, '--forward-to', local.url, '--from', unknown, '--json');
    expect({ status: missing.status, error: JSON.parse(missing.stderr) }).toEqual({
      status: 1,
      error: expect.objectContaining({ status: 404, code: 'WEBHOOK_NOT_FOUND' }),
    });
  });
});
