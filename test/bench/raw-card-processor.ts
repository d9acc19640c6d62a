import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Sqlite } from '#sqlite/driver.js';
import { forkHelper, stopHelper } from './helper-process.js';

/** What the raw reference is started with: its file's folder, the HMAC secret, the cards and their funds. */
export interface RawCardProcessorOptions {
  dir: string;
  secret: string;
  cards: { cardId: string; available: number }[];
  /** A platform decision endpoint asked before the hold (HMAC-signed), as the service asks a registered one. */
  decisionUrl?: string;
}

export interface RawCardProcessor {
  /** Origin; the route is `POST /card-processor/messages`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The raw reference of the card-authorizations benchmark, in a process of its own as the service is: a bare node:http
 * server with one better-sqlite3 file (WAL, `synchronous=FULL`) doing what an inbound AUTHORIZATION needs and nothing
 * else. It verifies the `X-Processor-Signature` HMAC (constant-time, the timestamp's age), optionally asks a decision
 * endpoint (one HMAC-signed POST), then in one transaction answers a replayed network transaction id as before or
 * checks the card's available funds, lowers them and records the hold. Requests that arrive together commit together
 * (one transaction and one sync per turn of the event loop). No framework, no validation, no events, no read models,
 * no card states, rules or deadlines.
 */
export async function startRawCardProcessor(options: RawCardProcessorOptions): Promise<RawCardProcessor> {
  const child = forkHelper(import.meta.url);
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the raw card processor exited with ${code}`)));
    child.on('message', (message: { origin?: string }) => message.origin && resolve(message.origin));
    child.send(options);
  });
  return {
    origin,
    close: () => stopHelper(child),
  };
}

interface Message {
  networkTransactionId: string;
  cardId: string;
  amount: number;
}

interface Pending {
  message: Message;
  res: ServerResponse;
}

const SCHEMA = `
CREATE TABLE cards (id TEXT PRIMARY KEY, available INTEGER NOT NULL);
CREATE TABLE holds (ntid TEXT PRIMARY KEY, card TEXT NOT NULL, amount INTEGER NOT NULL, answer TEXT NOT NULL);
`;

function verified(secret: string, header: string | undefined, raw: Buffer): boolean {
  const parts = new Map((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Connections to the decision endpoint, kept open between calls as the service keeps them. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Asks the decision endpoint; anything but a 200 approval declines. */
function platformApproves(url: string, secret: string, message: Message): Promise<boolean> {
  const id = `Webhook:${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ type: 'CARD_AUTHORIZATION.REQUEST', id, timestamp, data: message });
  const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64');
  const headers = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'webhook-signature': `v1,${signature}`,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { decision?: string };
        resolve(res.statusCode === 200 && answer.decision === 'APPROVE');
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function serve(options: RawCardProcessorOptions): Promise<string> {
  const db = new Sqlite(join(options.dir, 'raw-card-processor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
  const insertCard = db.prepare('INSERT INTO cards (id, available) VALUES (?, ?)');
  db.transaction(() => options.cards.forEach((c) => insertCard.run(c.cardId, c.available)))();
  const held = db.prepare<[string], { answer: string }>('SELECT answer FROM holds WHERE ntid = ?');
  const lower = db.prepare('UPDATE cards SET available = available - ? WHERE id = ? AND available >= ?');
  const hold = db.prepare('INSERT INTO holds (ntid, card, amount, answer) VALUES (?, ?, ?, ?)');
  const decide = (m: Message, approved: boolean): string => {
    const before = held.get(m.networkTransactionId);
    if (before) return before.answer;
    const authorizationId = `CardAuthorization:${randomUUID()}`;
    const funded = approved && lower.run(m.amount, m.cardId, m.amount).changes === 1;
    const answer = JSON.stringify(
      funded
        ? { decision: 'APPROVED', approvedAmount: m.amount, authorizationId }
        : { decision: 'DECLINED', approvedAmount: 0, declineReason: 'INSUFFICIENT_FUNDS', authorizationId },
    );
    hold.run(m.networkTransactionId, m.cardId, funded ? m.amount : 0, answer);
    return answer;
  };
  let queue: (Pending & { approved: boolean })[] = [];
  const commit = db.transaction((batch: typeof queue) => batch.map((p) => decide(p.message, p.approved)));
  const flush = () => {
    const batch = queue;
    queue = [];
    const answers = commit(batch);
    batch.forEach((p, i) => p.res.writeHead(200, { 'content-type': 'application/json' }).end(answers[i]));
  };
  const enqueue = (p: Pending & { approved: boolean }) => {
    if (queue.push(p) === 1) setImmediate(flush);
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    if (!verified(options.secret, req.headers['x-processor-signature'] as string | undefined, raw)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"PROCESSOR_SIGNATURE_INVALID"}');
      return;
    }
    const message = JSON.parse(raw.toString('utf8')) as Message;
    const approved = options.decisionUrl ? await platformApproves(options.decisionUrl, options.secret, message) : true;
    enqueue({ message, res, approved });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks)).catch(() => res.writeHead(500).end()));
  });
  server.keepAliveTimeout = 60_000;
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      db.close();
      process.exit(0);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

if (process.argv.includes('--serve')) {
  process.once('message', (options: RawCardProcessorOptions) => {
    void serve(options).then((origin) => process.send!({ origin }));
  });
}
