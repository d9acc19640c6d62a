import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forkHelper, stopHelper } from './helper-process.js';

/**
 * A platform's decision endpoint for the benchmarks, in a process of its own as an integrator's would be: it reads
 * each request and approves it at once (`{"decision":"APPROVE"}`), neither parsing nor verifying it, so what is
 * measured is the service's side of the call. It tells the benchmark how many requests it answered when asked.
 */
export interface DecisionReceiverProcess {
  url: string;
  /** Requests answered so far. */
  answered(): Promise<number>;
  close(): Promise<void>;
}

const APPROVE = JSON.stringify({ decision: 'APPROVE' });

export async function startDecisionReceiverProcess(): Promise<DecisionReceiverProcess> {
  const child = forkHelper(import.meta.url);
  const counts: ((n: number) => void)[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the decision receiver exited with ${code}`)));
    child.on('message', (message: { url?: string; answered?: number }) => {
      if (message.url) resolve(message.url);
      if (message.answered !== undefined) counts.shift()?.(message.answered);
    });
  });
  return {
    url,
    answered: () =>
      new Promise<number>((resolve) => {
        counts.push(resolve);
        child.send({ count: true });
      }),
    close: () => stopHelper(child),
  };
}

/** The receiver process: answers every request with an approval once its body is read. */
async function serve(): Promise<void> {
  let answered = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answered += 1;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(APPROVE) });
      res.end(APPROVE);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.on('message', () => process.send!({ answered }));
  process.send!({ url: `http://127.0.0.1:${port}/decide` });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

if (process.argv.includes('--serve')) void serve();
