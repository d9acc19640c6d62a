import cliProgress from 'cli-progress';
import type { VerifyProgress } from '#application/audit/audit-verify.js';

/**
 * Progress of `audit verify`: a bar with rate and ETA per phase on a terminal, otherwise plain
 * lines (at most one per phase every 10%) that a log collector can keep.
 */
export function verifyProgress(stream: NodeJS.WriteStream = process.stderr): VerifyProgress & { stop(): void } {
  let phase: string | undefined;
  let bar: cliProgress.SingleBar | undefined;
  let lastTenth = -1;
  let started = Date.now();
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    update(next, done, total) {
      if (stream.isTTY) {
        if (phase !== next) {
          stop();
          phase = next;
          started = Date.now();
          bar = new cliProgress.SingleBar(
            {
              stream,
              format: `${next.padEnd(7)} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left | {rate}/s`,
              hideCursor: true,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(Math.max(total, 1), 0, { rate: '0' });
        }
        const seconds = Math.max((Date.now() - started) / 1000, 0.001);
        bar!.setTotal(Math.max(total, 1));
        bar!.update(done, { rate: Math.round(done / seconds).toString() });
        return;
      }
      if (phase !== next) {
        phase = next;
        lastTenth = -1;
      }
      const tenth = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`audit verify: ${next} ${done}/${total}\n`);
      }
    },
    stop,
  };
}
