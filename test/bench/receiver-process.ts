import { poll } from '../support/poll.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { forkHelper, stopHelper } from './helper-process.js';

/** What the receiver process reports of each webhook it answered 2xx (the first time its id was delivered). */
export interface Receipt {
  /** The envelope's `data.id` and `data.balance.amount` (a balance webhook names its account and new balance). */
  accountId: string;
  amount: string;
  receivedAt: number;
}

interface Report {
  receipts: Receipt[];
  requests: number;
}

/**
 * The benchmark's webhook receiver in a process of its own, as an integrator's endpoint would be: its HTTP parsing
 * and answers do not take the service's event loop. It reports what it received to the benchmark in batches over
 * the IPC channel; `receivedAt` is its own clock, the machine's.
 */
export interface RemoteReceiver {
  url: string;
  receipts: Receipt[];
  /** Requests received, duplicates included. */
  requests(): number;
  waitFor(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const REPORT_EVERY_MS = 20;

export async function startRemoteReceiver(): Promise<RemoteReceiver> {
  const child = forkHelper(import.meta.url);
  const receipts: Receipt[] = [];
  let requests = 0;
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the receiver process exited with ${code}`)));
    child.on('message', (message: { url?: string } & Partial<Report>) => {
      if (message.url) resolve(message.url);
      if (message.receipts) receipts.push(...message.receipts);
      if (message.requests !== undefined) requests = message.requests;
    });
  });
  return {
    url,
    receipts,
    requests: () => requests,
    async waitFor(count, timeoutMs) {
      const what = `${count} deliveries`;
      await poll(
        async () => receipts.length,
        (received) => received >= count,
        { what, timeoutMs, intervalMs: REPORT_EVERY_MS },
      );
    },
    close: () => stopHelper(child),
  };
}

/** The receiver process: a test receiver answering 200, reporting new receipts every REPORT_EVERY_MS. */
async function serve(): Promise<void> {
  const receiver = await startWebhookReceiver('ok');
  const seen = new Set<string>();
  let reported = 0;
  let told = 0;
  const report = () => {
    const fresh: Receipt[] = [];
    for (; reported < receiver.requests.length; reported++) {
      const request = receiver.requests[reported];
      const hook = request.json;
      if (!hook || request.answered !== 200 || seen.has(hook.id)) continue;
      seen.add(hook.id);
      const { id, balance } = hook.data as { id: string; balance?: { amount: number | string } };
      if (balance) fresh.push({ accountId: id, amount: String(balance.amount), receivedAt: request.receivedAt });
    }
    if (fresh.length === 0 && told === receiver.requests.length) return;
    told = receiver.requests.length;
    process.send!({ receipts: fresh, requests: told });
  };
  setInterval(report, REPORT_EVERY_MS);
  process.send!({ url: receiver.url });
  process.once('SIGTERM', () => void receiver.close().then(() => process.exit(0)));
}

if (process.argv.includes('--serve')) void serve();
