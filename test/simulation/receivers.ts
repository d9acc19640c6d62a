import { createECDH, createPrivateKey, createPublicKey } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { SecretBox } from '#crypto/secret-box.js';
import type { WebhookSigningMaterial } from '#domain/webhooks/webhook-config.js';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import type { postWebhook } from '../../apps/host/src/webhooks/sender.js';
import type { Random, Scheduler } from './scheduler.js';

/**
 * How a platform's receiver behaves for a while: answers at once (`ok`, now and then a 500), after a delay that may
 * pass the deliverer's timeout (`slow`), with a mix of answers, errors, refused connections and duplicates (`flaky`),
 * always with a 503 (`failing`), not at all (`down`: the connection is refused), or takes every request twice
 * (`duplicating`: a proxy in front of it sends it again).
 */
export type ReceiverMode = 'ok' | 'slow' | 'flaky' | 'failing' | 'down' | 'duplicating' | 'off';

/** `off`: the platform turns its webhooks off (its endpoint set to null) until the next change turns them on again. */
const MODES: readonly ReceiverMode[] = [
  ...(['ok', 'ok', 'slow', 'flaky', 'failing', 'down', 'duplicating'] as const),
  ...(['off', 'off', 'off', 'off'] as const),
];

/** A receiver's change of behaviour: its platform and url, and whether the platform turns its webhooks off or on. */
export interface ReceiverShift {
  platformId: string;
  url: string;
  mode: ReceiverMode;
  /** The endpoint the platform sets now (null: webhooks off); absent when it stays as it was. */
  endpoint?: string | null;
}

/** One request a receiver got. */
export interface Receipt {
  /** The platform whose receiver got it. */
  receiver: string;
  /** The `webhook-id` header. */
  webhookId: string;
  body: string;
  /** The body's `id` (the webhook id the receiver dedupes on). */
  bodyId: unknown;
  /** Whether its Standard Webhooks signature verifies under the receiver's platform's secret (and is recent). */
  signed: boolean;
  /** Whether the receiver took it (it answered 2xx, in time for the deliverer or not). */
  accepted: boolean;
}

interface Receiver {
  platformId: string;
  url: string;
  standard: Webhook;
  mode: ReceiverMode;
}

/** What one request meets: refused, or answered `status` after `delayMs`, taken (and how often) or not. */
type Answer = { unreachable: true } | { unreachable?: false; status: number; delayMs: number; copies: number };

/** The sealing contexts of the service's webhook keys (libs/application/src/webhooks/webhook-keys.ts). */
const keyContext = (platformId: string) => `webhook-signing-key:${platformId}`;
const secretContext = (platformId: string) => `webhook-secret:${platformId}`;

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** 32 bytes from the seed. */
const seededBytes = (random: Random): Buffer =>
  Buffer.from(`${random.uuid()}${random.uuid()}`.replace(/-/g, ''), 'hex');

/** A platform's webhook signing material (its P-256 key, its secret) from the seed, sealed as the service seals it. */
export function seededSigningMaterial(
  random: Random,
  platformId: string,
  box: SecretBox,
): { material: WebhookSigningMaterial; secret: string } {
  const ecdh = createECDH('prime256v1');
  const d = seededBytes(random);
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    d: base64url(d),
    x: base64url(point.subarray(1, 33)),
    y: base64url(point.subarray(33)),
  };
  const privateKey = createPrivateKey({ key: jwk, format: 'jwk' });
  const publicKey = createPublicKey(privateKey);
  const secret = `whsec_${seededBytes(random).toString('base64')}`;
  const material = {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sealedPrivateKey: box.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), keyContext(platformId)),
    sealedSecret: box.seal(secret, secretContext(platformId)),
  };
  return { material, secret };
}

/**
 * The platforms' webhook receivers: what each got, and how each behaves, drawn from the seed. Outside the service, so
 * they outlive its restarts. Healthy (`healthy()`, once faults end) every receiver takes every request at once.
 */
export class SimReceivers {
  private readonly byUrl = new Map<string, Receiver>();
  /** Every request received, by webhook id. */
  readonly received = new Map<string, Receipt[]>();
  /** The dispatcher's checkpoint: the service keeps it durably (with the read models), so it outlives restarts. */
  dispatched = 0n;

  constructor(
    private readonly random: Random,
    private readonly scheduler: Scheduler,
    private readonly healthy: () => boolean,
  ) {}

  /** A receiver for the platform at `url`, and the platform's signing material (drawn from the seed), sealed. */
  add(platformId: string, url: string, box: SecretBox, mode: ReceiverMode = 'ok'): WebhookSigningMaterial {
    const { material, secret } = seededSigningMaterial(this.random, platformId, box);
    this.byUrl.set(url, { platformId, url, standard: new Webhook(secret), mode });
    return material;
  }

  /** A receiver, picked by the seed, behaves otherwise from now on. */
  shift(): ReceiverShift {
    const receiver = this.random.pick([...this.byUrl.values()]);
    const was = receiver.mode;
    receiver.mode = this.random.pick(MODES);
    const { platformId, url, mode } = receiver;
    if ((was === 'off') === (mode === 'off')) return { platformId, url, mode };
    return { platformId, url, mode, endpoint: mode === 'off' ? null : url };
  }

  /**
   * The deliverer's HTTP POST, to these receivers: the request is received (or refused), and its answer travels back
   * (an operation the scheduler completes in its order, never for a stopped process: `hold`) at once or after a
   * delay on the virtual clock; an answer later than the timeout is a timeout, as the real sender reports it.
   */
  sender(hold: (label: string) => Promise<void>): typeof postWebhook {
    return async (url, body, headers, options) => {
      const started = this.scheduler.clock.now().getTime();
      const latencyMs = () => this.scheduler.clock.now().getTime() - started;
      const receiver = this.byUrl.get(url);
      const answer: Answer = receiver ? this.answer(receiver, options.timeoutMs) : { unreachable: true };
      // Received as sent (the signature's timestamp is checked against the receiver's clock then); the answer
      // travels back as the scheduler lets it.
      if (receiver && !answer.unreachable)
        for (let copy = 0; copy < answer.copies; copy++)
          this.receive(receiver, body, headers, answer.status >= 200 && answer.status < 300);
      await hold(`webhook to ${url}`);
      if (!receiver || answer.unreachable) return { latencyMs: latencyMs(), error: UNREACHABLE, cause: 'refused' };
      if (answer.delayMs > 0) {
        await new Promise<void>((resolve) => setTimeout(resolve, Math.min(answer.delayMs, options.timeoutMs)));
        await hold(`webhook answer from ${url}`);
        if (answer.delayMs >= options.timeoutMs)
          return { latencyMs: options.timeoutMs, error: UNREACHABLE, cause: `timeout after ${options.timeoutMs} ms` };
      }
      return { statusCode: answer.status, latencyMs: latencyMs(), responseBody: '', reply: '' };
    };
  }

  /** What a request to `receiver` meets, by its mode now (drawn when the request is sent). */
  private answer(receiver: Receiver, timeoutMs: number): Answer {
    const ok = (delayMs = 0, copies = 1): Answer => ({ status: 200, delayMs, copies });
    if (this.healthy()) return ok();
    const roll = this.random.next();
    switch (receiver.mode) {
      case 'ok':
      case 'off':
        return roll < 0.95 ? ok() : { status: 500, delayMs: 0, copies: 1 };
      case 'slow':
        return ok(1 + this.random.int(2 * timeoutMs));
      case 'flaky':
        if (roll < 0.4) return ok();
        if (roll < 0.6) return { status: 500, delayMs: 0, copies: 1 };
        if (roll < 0.8) return { unreachable: true };
        return ok(0, 2);
      case 'failing':
        return { status: 503, delayMs: 0, copies: 1 };
      case 'down':
        return { unreachable: true };
      case 'duplicating':
        return ok(0, 2);
    }
  }

  /** The receiver checks the signature as a platform does, with `standardwebhooks`. */
  private receive(receiver: Receiver, body: string, headers: Record<string, string>, accepted: boolean): void {
    let signed: boolean;
    try {
      receiver.standard.verify(body, headers);
      signed = true;
    } catch {
      signed = false;
    }
    const webhookId = headers['webhook-id'] ?? '';
    const bodyId = (JSON.parse(body) as { id?: unknown }).id;
    const receipt: Receipt = { receiver: receiver.platformId, webhookId, body, bodyId, signed, accepted };
    const receipts = this.received.get(webhookId) ?? [];
    receipts.push(receipt);
    this.received.set(webhookId, receipts);
  }
}
