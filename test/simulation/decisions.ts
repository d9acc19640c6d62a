import type { SecretBox } from '#crypto/secret-box.js';
import type { PlatformDecisions } from '#application/decisions/platform-decisions.js';
import {
  type DecisionKind,
  DEFAULT_DECISIONS,
  MAX_DECISION_DEADLINE_MS,
  MIN_DECISION_DEADLINE_MS,
} from '#domain/webhooks/decision-endpoints.js';
import { streams } from '#domain/primitives.js';
import { webhookConfigDecider } from '#domain/webhooks/webhook-config.js';
import { UNREACHABLE } from '#domain/webhooks/webhook-delivery.js';
import { refusedUrlHost } from '#net/address-policy.js';
import { HttpPlatformDecisions } from '../../apps/host/src/decisions/http-platform-decisions.js';
import type { postWebhook } from '../../apps/host/src/webhooks/sender.js';
import type { SimProcess } from './process.js';
import { seededSigningMaterial } from './receivers.js';
import type { Random, Scheduler } from './scheduler.js';
import type { World } from './world.js';

/**
 * What a simulated decision endpoint answered one request: a decision in time (APPROVE, a card's PARTIAL approval,
 * DECLINE or REJECT), an answer later than the deadline (`LATE`), a 5xx (`BAD_STATUS`), a body that is not a usable
 * answer (`MALFORMED`), or a refused connection (`UNREACHABLE`).
 */
export type EndpointAnswer =
  'APPROVE' | 'PARTIAL' | 'DECLINE' | 'REJECT' | 'LATE' | 'BAD_STATUS' | 'MALFORMED' | 'UNREACHABLE';

/** One platform's decision endpoint of one kind, as it was registered. */
export interface SimDecisionEndpoint {
  platformId: string;
  kind: DecisionKind;
  url: string;
  deadlineMs: number;
  defaultDecision: string;
}

/** One request an endpoint got: the resource it was asked about (`data.id`) and what it answered. */
export interface DecisionAsked {
  endpoint: SimDecisionEndpoint;
  resourceId: string;
  answer: EndpointAnswer;
  /** A PARTIAL approval's amount (less than the amount asked). */
  approvedAmount?: bigint;
  /** A MALFORMED answer's body. */
  body?: string;
}

const KINDS: readonly DecisionKind[] = ['CARD_AUTHORIZATION.REQUEST', 'AGENT_ACTION.REQUEST'];

/** Bodies that are no usable answer: not JSON, not an object, an unknown decision, a reason that is not a string. */
const MALFORMED_BODIES = ['not json', '[]', '{"decision":"MAYBE"}', '{"decision":"APPROVE","reason":7}'];

/**
 * The platforms' decision endpoints, outside the service (they outlive its restarts): which platforms registered one
 * of each kind, its deadline and default (all drawn from the seed), and what each request was answered, drawn from the
 * seed as it arrives.
 */
export class SimDecisionEndpoints {
  private readonly byUrl = new Map<string, SimDecisionEndpoint>();
  /** Every request answered, by the resource asked about (an authorization's or an action's id). */
  readonly asked = new Map<string, DecisionAsked[]>();

  constructor(
    private readonly random: Random,
    private readonly scheduler: Scheduler,
  ) {}

  /** The platform's endpoint of `kind`, if it registered one. */
  endpointOf(platformId: string, kind: DecisionKind): SimDecisionEndpoint | undefined {
    for (const endpoint of this.byUrl.values())
      if (endpoint.platformId === platformId && endpoint.kind === kind) return endpoint;
    return undefined;
  }

  /**
   * Each platform registers, by the seed, an endpoint of each kind or none, with a deadline within the allowed
   * range and a default of the kind's; a platform without webhook signing material gets its own (drawn from the seed),
   * as the first configuration of decision endpoints generates it.
   */
  async configure(process: SimProcess, world: World, box: SecretBox): Promise<void> {
    for (const [i, platform] of world.platforms.entries()) {
      const endpoints = KINDS.filter(() => this.random.chance(0.6)).map((kind): SimDecisionEndpoint => ({
        platformId: platform.id,
        kind,
        url: `https://decisions-${i}.example.com/${kind === 'CARD_AUTHORIZATION.REQUEST' ? 'cards' : 'agents'}`,
        deadlineMs: MIN_DECISION_DEADLINE_MS + this.random.int(MAX_DECISION_DEADLINE_MS - MIN_DECISION_DEADLINE_MS + 1),
        defaultDecision: this.random.pick(DEFAULT_DECISIONS[kind]),
      }));
      if (endpoints.length === 0) continue;
      const { state } = await process.runner.load(streams.webhooks(platform.id), webhookConfigDecider);
      const newKeys = state.keys ? undefined : seededSigningMaterial(this.random, platform.id, box).material;
      await process.runner.run(
        streams.webhooks(platform.id),
        webhookConfigDecider,
        {
          type: 'SetDecisionEndpoints',
          platformId: platform.id,
          decisionEndpoints: endpoints.map(({ kind, url, deadlineMs, defaultDecision }) => ({
            type: kind,
            url,
            deadlineMs,
            defaultDecision,
          })),
          sandbox: platform.sandbox,
          hosts: { refuses: (target: URL) => refusedUrlHost(target, []) !== undefined },
          ...(newKeys ? { newKeys } : {}),
          now: process.clocks.base.now().toISOString(),
        },
        {
          metadata: { platformId: platform.id, actor: 'ApiToken:simulation', correlationId: 'setup' },
          answersAfter: 'append',
        },
      );
      for (const endpoint of endpoints) this.byUrl.set(endpoint.url, endpoint);
    }
  }

  /**
   * The service's decision endpoints client (the real one: it loads the platform's configuration, signs the request,
   * races the deadline on its timer and reads the answer), posting to these endpoints and measuring on the process's
   * monotonic clock (`performance.now`, which the scheduler runs on the virtual clock).
   */
  client(process: SimProcess, box: SecretBox, hold: (label: string) => Promise<void>): PlatformDecisions {
    return new HttpPlatformDecisions({
      runner: process.runner,
      box,
      clocks: process.clocks,
      wallClock: this.scheduler.clock,
      allowedHosts: [],
      monotonic: () => performance.now(),
      post: this.poster(hold),
      signOnLoop: true,
    });
  }

  /**
   * The client's HTTP POST, to these endpoints: the answer is drawn when the request arrives and travels back as the
   * scheduler lets it (never for a stopped process: `hold`); a late one comes after the deadline on the virtual clock,
   * so the client's timer, due first, has given up on it.
   */
  private poster(hold: (label: string) => Promise<void>): typeof postWebhook {
    return async (url, body, _headers, options) => {
      const started = this.scheduler.clock.now().getTime();
      const latencyMs = () => this.scheduler.clock.now().getTime() - started;
      const endpoint = this.byUrl.get(url);
      const request = JSON.parse(body) as { data: { id: string; amount?: number } };
      const asked = endpoint ? this.answer(endpoint, request.data) : undefined;
      if (asked) this.asked.set(asked.resourceId, [...(this.asked.get(asked.resourceId) ?? []), asked]);
      await hold(`decision to ${url}`);
      if (!asked || asked.answer === 'UNREACHABLE')
        return { latencyMs: latencyMs(), error: UNREACHABLE, cause: 'refused' };
      if (asked.answer === 'LATE') {
        const delayMs = options.timeoutMs + 1 + this.random.int(asked.endpoint.deadlineMs);
        await new Promise<void>((resolve) => setTimeout(resolve, delayMs));
        await hold(`late decision from ${url}`);
        return { latencyMs: latencyMs(), error: UNREACHABLE, cause: `timeout after ${options.timeoutMs} ms` };
      }
      if (asked.answer === 'BAD_STATUS')
        return { statusCode: this.random.pick([500, 502, 503]), latencyMs: latencyMs(), responseBody: '', reply: '' };
      const reply = replyOf(asked);
      return { statusCode: 200, latencyMs: latencyMs(), responseBody: reply, reply };
    };
  }

  /** What the endpoint answers a request about `data`, drawn from the seed. */
  private answer(endpoint: SimDecisionEndpoint, data: { id: string; amount?: number }): DecisionAsked {
    const card = endpoint.kind === 'CARD_AUTHORIZATION.REQUEST';
    const asked = (answer: EndpointAnswer, more: { approvedAmount?: bigint; body?: string } = {}): DecisionAsked => ({
      endpoint,
      resourceId: data.id,
      answer,
      ...more,
    });
    const roll = this.random.next();
    if (roll < 0.35) return asked('APPROVE');
    if (roll < 0.45 && card && (data.amount ?? 0) > 1)
      return asked('PARTIAL', { approvedAmount: BigInt(1 + this.random.int(data.amount! - 1)) });
    if (roll < 0.6) return asked(card ? 'DECLINE' : 'REJECT');
    if (roll < 0.72) return asked('LATE');
    if (roll < 0.84) return asked('BAD_STATUS');
    if (roll < 0.95) {
      // A card's partial approval above the amount asked is malformed too.
      const above = card && data.amount !== undefined && this.random.chance(0.2);
      const body = above
        ? JSON.stringify({ decision: 'APPROVE', approvedAmount: data.amount! + 1 })
        : this.random.pick(MALFORMED_BODIES);
      return asked('MALFORMED', { body });
    }
    return asked('UNREACHABLE');
  }
}

/** The body of an answer in time. */
function replyOf(asked: DecisionAsked): string {
  if (asked.answer === 'PARTIAL')
    return JSON.stringify({ decision: 'APPROVE', approvedAmount: Number(asked.approvedAmount) });
  if (asked.answer === 'MALFORMED') return asked.body ?? '';
  return JSON.stringify({ decision: asked.answer, reason: `simulated ${asked.answer.toLowerCase()}` });
}
