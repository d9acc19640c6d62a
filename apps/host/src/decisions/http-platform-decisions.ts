import { performance } from 'node:perf_hooks';
import type { CommandRunner } from '#application/command-runner.js';
import type {
  DecisionFallback,
  DecisionKind,
  DecisionRequest,
  PlatformDecision,
  PlatformDecisions,
} from '#application/decisions/platform-decisions.js';
import type { PlatformClocks } from '#application/command-context.js';
import type { AppConfig } from '#config/config.js';
import { loadSecretsKey, SecretBox } from '#crypto/secret-box.js';
import { systemClock, type Clock } from '#domain/clock.js';
import { RecentCache, streams } from '#domain/primitives.js';
import {
  parseDecisionAnswer,
  type DecisionAnswer,
  type DecisionEndpoint,
} from '#domain/webhooks/decision-endpoints.js';
import { webhookConfigDecider, type ConfiguredWebhooks } from '#domain/webhooks/webhook-config.js';
import type { AllowedHost } from '#net/address-policy.js';
import type { Resolver } from '#net/resolve-target.js';
import { postWebhook } from '../webhooks/sender.js';
import { WebhookSigner } from '../webhooks/signer.js';

export interface HttpPlatformDecisionsDeps {
  runner: CommandRunner;
  box: SecretBox;
  clocks: PlatformClocks;
  /** The Standard Webhooks timestamp's clock (receivers compare it with theirs). */
  wallClock: Clock;
  /** Hosts the operator trusts whatever they resolve to (`WEBHOOK_ALLOWED_HOSTS`). */
  allowedHosts: readonly AllowedHost[];
  resolve?: Resolver;
  /** Milliseconds on a monotonic clock (performance.now by default). */
  monotonic?: () => number;
  /** The HTTP POST (postWebhook by default): a test or a simulation answers for the endpoints. */
  post?: typeof postWebhook;
  /** Signs on the event loop's thread, not the thread pool (a simulation, whose turns must not depend on threads). */
  signOnLoop?: boolean;
}

const SIGNER_CACHE = 256;

/** What the endpoint answered, or why no usable answer came. */
type Asked = { answer: DecisionAnswer } | { fallback: DecisionFallback };

/**
 * The decision endpoints over HTTP: a POST of `{type, id, timestamp, data}` signed exactly as webhooks are (both
 * signatures), sent to the vetted addresses of the endpoint's host, within the deadline counted from the request's
 * arrival (an AbortController's timer). Every call is on its own: no queue or lock is shared between platforms.
 */
export class HttpPlatformDecisions implements PlatformDecisions {
  private readonly signers = new RecentCache<string, WebhookSigner>(SIGNER_CACHE);
  private readonly monotonic: () => number;

  constructor(private readonly deps: HttpPlatformDecisionsDeps) {
    this.monotonic = deps.monotonic ?? (() => performance.now());
  }

  now(): number {
    return this.monotonic();
  }

  async decide(
    platformId: string,
    kind: DecisionKind,
    request: DecisionRequest,
  ): Promise<PlatformDecision | undefined> {
    const startedAt = request.startedAt ?? this.now();
    const { state } = await this.deps.runner.load(streams.webhooks(platformId), webhookConfigDecider);
    const endpoint = state.configured ? state.decisionEndpoints?.find((e) => e.type === kind) : undefined;
    if (!state.configured || !endpoint) return undefined;
    const controller = new AbortController();
    const remaining = Math.max(0, endpoint.deadlineMs - (this.now() - startedAt));
    const timer = setTimeout(() => controller.abort(), remaining);
    let asked: Asked;
    try {
      const timedOut = new Promise<Asked>((resolve) =>
        controller.signal.addEventListener('abort', () => resolve({ fallback: 'TIMEOUT' }), { once: true }),
      );
      asked = await Promise.race([this.ask(state, endpoint, request, remaining), timedOut]);
    } catch {
      asked = { fallback: 'CONNECTION_ERROR' };
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    const elapsedMs = Math.max(0, Math.round(this.now() - startedAt));
    if ('answer' in asked) {
      const { decision, reason, approvedAmount } = asked.answer;
      return {
        approved: decision === 'APPROVE',
        decision,
        ...(approvedAmount !== undefined ? { approvedAmount } : {}),
        ...(reason !== undefined ? { reason } : {}),
        decidedBy: 'PLATFORM',
        elapsedMs,
      };
    }
    const decision = endpoint.defaultDecision;
    return { approved: decision === 'APPROVE', decision, decidedBy: 'DEFAULT', fallback: asked.fallback, elapsedMs };
  }

  private async ask(
    state: ConfiguredWebhooks,
    endpoint: DecisionEndpoint,
    request: DecisionRequest,
    timeoutMs: number,
  ): Promise<Asked> {
    const { platformId } = state;
    const platformNow = await this.deps.clocks.now(platformId);
    const body = JSON.stringify({
      type: endpoint.type,
      id: request.requestId,
      timestamp: platformNow.toISOString(),
      data: request.data,
    });
    const headers = await this.signer(state).headers(request.requestId, body, this.deps.wallClock.now(), platformNow);
    const { allowedHosts, resolve, post = postWebhook } = this.deps;
    const result = await post(endpoint.url, body, headers, {
      timeoutMs,
      allowedHosts,
      ...(resolve ? { resolve } : {}),
    });
    if (result.statusCode === undefined)
      return { fallback: result.cause?.startsWith('timeout') ? 'TIMEOUT' : 'CONNECTION_ERROR' };
    if (result.statusCode < 200 || result.statusCode > 299) return { fallback: 'BAD_STATUS' };
    const answer = parseDecisionAnswer(endpoint.type, result.reply, request.requestedAmount);
    return answer ? { answer } : { fallback: 'MALFORMED_ANSWER' };
  }

  /** The platform's signer, cached per secret: a rotation makes a new one. */
  private signer(state: ConfiguredWebhooks): WebhookSigner {
    const key = `${state.platformId}:${state.keys.sealedSecret}:${state.previousSecret?.sealedSecret ?? ''}`;
    let signer = this.signers.get(key);
    if (!signer) {
      signer = new WebhookSigner(
        this.deps.box,
        state.platformId,
        state.keys,
        state.previousSecret,
        this.deps.signOnLoop,
      );
      this.signers.set(key, signer);
    }
    return signer;
  }
}

/** The decision endpoints a process that serves the API asks, on its runner and the operator's allow-list. */
export function createPlatformDecisions(
  infra: { runner: CommandRunner; clocks: PlatformClocks },
  config: { secretsKey: AppConfig['secretsKey']; webhookAllowedHosts: readonly AllowedHost[] },
  monotonic?: () => number,
): HttpPlatformDecisions {
  return new HttpPlatformDecisions({
    runner: infra.runner,
    box: new SecretBox(loadSecretsKey(config.secretsKey)),
    clocks: infra.clocks,
    wallClock: systemClock,
    allowedHosts: config.webhookAllowedHosts,
    ...(monotonic ? { monotonic } : {}),
  });
}
