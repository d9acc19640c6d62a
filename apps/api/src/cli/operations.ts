import { verifyAudit } from '#application/audit/audit-verify.js';
import { createScratchReadModelStore } from '#read-models/index.js';
import { allProjections } from '#read-models/projections/index.js';
import { replayThread } from '../../../host/src/replay-thread.js';
import { verifyProgress } from '../audit/verify-progress.js';
import { UsageError, type CliCommand } from './command.js';
import { fields, table } from './format.js';

/** The installation's read models and log: rebuild and verify. */
export const operationsCommands: CliCommand[] = [
  {
    name: 'read-models:rebuild',
    synopsis: '[--projection NAME ...]',
    description:
      'drops the read models (all, or the named projections) and replays the event log from position 0;\n' +
      'safe while workers run: it takes their projector leases (their later writes are refused) and\n' +
      'hands them back when done',
    options: { projection: { type: 'string', multiple: true } },
    async run({ infra, config, values }) {
      const names = (values.projection as string[] | undefined) ?? allProjections.map((p) => p.name);
      const unknown = names.filter((n) => !allProjections.some((p) => p.name === n));
      if (unknown.length)
        throw new UsageError(
          `unknown projection(s): ${unknown.join(', ')}; known: ${allProjections.map((p) => p.name).join(', ')}`,
        );
      const started = Date.now();
      await infra.projections.rebuild(names, { delegate: replayThread(config) });
      await infra.projections.stop();
      const data = { rebuilt: names, position: infra.projections.position.toString(), ms: Date.now() - started };
      return {
        data,
        text: () =>
          `rebuilt ${names.length} projection(s) up to log position ${data.position} in ${data.ms} ms:\n` +
          names.map((n) => `  ${n}`).join('\n'),
      };
    },
  },
  {
    name: 'audit verify',
    synopsis: '',
    description:
      'replays the whole log into scratch read models and compares them with the live ones (a digest per\n' +
      'collection, then the first differing document), and proves the ledger invariants; exits 1 naming\n' +
      'every finding (progress on stderr)',
    async run({ infra }) {
      const progress = verifyProgress();
      const report = await verifyAudit({
        events: infra.eventStore,
        live: infra.readModels,
        projections: allProjections,
        scratch: createScratchReadModelStore,
        progress,
      }).finally(() => progress.stop());
      for (const finding of report.findings) console.error(`finding: ${finding}`);
      const ok = report.findings.length === 0;
      return {
        data: { ok, ...report },
        exitCode: ok ? 0 : 1,
        text: () =>
          [
            ok ? 'audit verify: ok' : `audit verify: ${report.findings.length} finding(s) (listed on stderr)`,
            fields([
              ['log head', report.head],
              ['events', report.events],
              ['streams (hash chains)', report.streams],
              ['ledgers', report.ledgers],
            ]),
            table(
              ['collection', 'documents', 'digest'],
              Object.entries(report.collections).map(([name, c]) => [name, c.documents, c.digest.slice(0, 16)]),
            ),
          ].join('\n\n'),
      };
    },
  },
];
