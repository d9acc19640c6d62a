import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Sqlite } from '#sqlite/driver.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { verifyAudit } from '#application/audit/audit-verify.js';
import { ManualClock } from '#domain/clock.js';
import { SequentialIds } from '#domain/primitives.js';
import { createScratchReadModelStore } from '#read-models/index.js';
import { allProjections } from '#read-models/projections/index.js';
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import { startTestService, type TestService } from '../support/service.js';
import { signedRequest } from '../support/wallet-session.js';
import { money } from './money-support.js';

const START = Date.UTC(2026, 3, 1, 8);

/** `npm run cli -- audit verify --json` on a data directory (the build is current: jest runs after it). */
function cliVerify(dataDir: string) {
  const run = spawnSync(process.execPath, [resolve('dist/apps/api/src/cli.js'), 'audit', 'verify', '--json'], {
    env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('audit verify: replay into scratch read models, compare, prove the ledger', () => {
  let dataDir: string;
  let t: TestService | undefined;
  let holder: Cardholder;

  // Every test gets the same scripted history in a data directory of its own (ids and clock are deterministic):
  // customers, fundings, a card with an authorization and a freeze, a payment.
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payments-audit-verify-'));
    const clock = new ManualClock(START);
    t = await startTestService({ clock, ids: new SequentialIds(), dataDir });
    holder = await cardholder(t, t.api, clock, 'verify-holder');
    clock.advance(60_000);
    const freeze = await signedRequest(t.api, 'PATCH', `/cards/${holder.cardId}`, { state: 'FROZEN' }, holder.wallet);
    expect(freeze.result.status).toBe(200);
    const m = money(t);
    const bob = await m.customer(['USD']);
    const quote = (await m.accountQuote(holder.usd, bob.accounts.USD, 1_200)).body;
    expect((await t.api.post(`/quotes/${quote.id}/execute`)).status).toBe(200);
    await m.eventually(quote.transactionId, 'COMPLETED');
    const { projections, eventStore } = t.service.infra;
    expect(await projections.waitForPosition(await eventStore.headPosition(), 5_000)).toBe(true);
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays the same history twice into identical read models that match the live ones', async () => {
    const { eventStore, readModels } = t!.service.infra;
    const deps = {
      events: eventStore,
      live: readModels,
      projections: allProjections,
      scratch: createScratchReadModelStore,
    };
    const first = await verifyAudit(deps);
    const second = await verifyAudit(deps);
    expect(first.findings).toEqual([]);
    expect(second.collections).toEqual(first.collections);
    expect(first.collections.cards.documents).toBe(1);
    expect(first.ledgers).toBe(1);
    expect(Number(first.head)).toBe(first.events);
  });

  it('passes from the CLI, then names a corrupted read-model row and exits non-zero', async () => {
    await t!.close();
    t = undefined;
    const clean = cliVerify(dataDir);
    const findings = clean.stderr.split('\n').filter((l) => l.startsWith('finding'));
    expect({ status: clean.status, findings }).toEqual({ status: 0, findings: [] });
    expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, findings: [] });
    expect(clean.stderr).toMatch(/audit verify: replay/);

    const db = new Sqlite(join(dataDir, 'read-models.db'));
    const changed = db
      .prepare("UPDATE docs_cards SET body = json_set(body, '$.state', 'ACTIVE') WHERE id = ?")
      .run(holder.cardId).changes;
    db.close();
    expect(changed).toBe(1);

    const corrupted = cliVerify(dataDir);
    expect(corrupted.status).toBe(1);
    expect(JSON.parse(corrupted.stdout).ok).toBe(false);
    expect(corrupted.stderr).toContain(`finding: collection cards: live digest`);
    expect(corrupted.stderr).toContain(`first differing document ${holder.cardId} (contents differ)`);
  });

  it('names a modified event row by stream and revision and exits non-zero', async () => {
    // The CLI reads the files of a stopped service.
    await t!.close();
    t = undefined;
    const cardStream = `card-${holder.cardId.split(':')[1]}`;
    const db = new Sqlite(join(dataDir, 'service.db'));
    const last = db
      .prepare('SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
      .get(cardStream) as { revision: number };
    // An edit that leaves the read models alone (metadata only): only the hash chain can notice it.
    const changed = db
      .prepare(
        "UPDATE events SET metadata = json_set(metadata, '$.actor', 'system:edited') WHERE stream = ? AND revision = ?",
      )
      .run(cardStream, last.revision).changes;
    db.close();
    expect(changed).toBe(1);

    const tampered = cliVerify(dataDir);
    expect(tampered.status).toBe(1);
    const report = JSON.parse(tampered.stdout) as { ok: boolean; streams: number; findings: string[] };
    expect(report.ok).toBe(false);
    expect(report.streams).toBeGreaterThan(1);
    const chain = report.findings.filter((f) => f.startsWith('hash chain'));
    expect(chain).toEqual([
      `hash chain: stream ${cardStream} broken at revision ${last.revision}: the event does not ` +
        `match its hash (modified)`,
    ]);
    expect(tampered.stderr).toContain(`finding: hash chain: stream ${cardStream} broken at revision ${last.revision}`);
  });
});
