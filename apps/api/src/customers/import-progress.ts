import cliProgress from 'cli-progress';
import type { BulkImportProgress } from '#domain/customers/bulk-import.js';

/**
 * Progress of `customers:import`: a bar with counts, rate and ETA on a terminal, otherwise plain
 * lines (at most one every 10% of the rows) that a log collector can keep.
 */
export function importProgress(stream: NodeJS.WriteStream = process.stderr) {
  let bar: cliProgress.SingleBar | undefined;
  let lastTenth = -1;
  return {
    update(p: BulkImportProgress) {
      const counts = { successful: p.successful, failed: p.failed };
      if (stream.isTTY) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              stream,
              format:
                'import [{bar}] {percentage}% | {value}/{total} rows | {successful} created, {failed} failed | ' +
                '{eta_formatted} left',
              hideCursor: true,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(Math.max(p.total, 1), p.processed, counts);
        }
        bar.update(p.processed, counts);
        return;
      }
      const tenth = p.total > 0 ? Math.floor((p.processed / p.total) * 10) : 10;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(
          `customers:import: ${p.processed}/${p.total} rows (${p.successful} created, ${p.failed} failed)\n`,
        );
      }
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
