import { Logger } from '@nestjs/common';
import type { Clock } from '#domain/clock.js';
import { RecentCache, streams } from '#domain/primitives.js';
import { retryDelayMs, WEBHOOK_RETRY_POLICY } from '#domain/webhooks/retry-policy.js';
import { webhookConfigDecider } from '#domain/webhooks/webhook-config.js';
import {
  attemptOutcome,
  webhookDeliveryDecider,
  type AttemptOutcome,
  type DeliveryAttempt,
} from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { approvalReply, requestedFieldsOf, type ApprovalReply } from '#domain/webhooks/payment-approval.js';
import { APPROVAL_WEBHOOK_TYPE } from '#domain/webhooks/payment-webhooks.js';
import type { AnswersAfter, CommandRunner } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import { TurnMemo } from '#application/turn-memo.js';
import type { DeliveryRequest, WebhookAttempts } from '#application/webhooks/webhook-attempts.js';
import type { ProcessObservers } from '#application/infrastructure.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { AllowedHost } from '#net/address-policy.js';
import type { Resolver } from '#net/resolve-target.js';
import { postWebhook, type SendResult } from '../../../host/src/webhooks/sender.js';
import { WebhookSigner } from '../../../host/src/webhooks/signer.js';

export type { DeliveryRequest };

export interface DeliveryDeps {
  runner: CommandRunner;
  box: SecretBox;
  /** Business time (each platform's clock): attempt times and the retry schedule. */
  clocks: PlatformClocks;
  /** Real time for the Standard Webhooks timestamp, which receivers compare with their own clock. */
  wallClock: Clock;
  timeoutMs: number;
  /** Hosts exempt from the address policy (`WEBHOOK_ALLOWED_HOSTS`). */
  allowedHosts: readonly AllowedHost[];
  /** DNS for receivers' hosts; the system resolver unless a test injects one. */
  resolve?: Resolver;
  /** Told of every attempt made (the process's metrics). */
  observers?: ProcessObservers;
  /** Sends one signed webhook: the HTTP POST unless a simulation puts its receivers here. */
  send?: typeof postWebhook;
  /** Signs on the event loop's thread, not the thread pool (a simulation, whose turns must not depend on threads). */
  signOnLoop?: boolean;
}

const SIGNER_CACHE = 1000;

/** A platform's endpoint (null when webhooks are off) and the signer for its webhooks. */
type Target = { url: string | null; signer?: WebhookSigner };

/**
 * Makes one delivery attempt: signs, POSTs to the platform's current endpoint, and records the
 * attempt in the webhook's stream. Retries follow an endpoint change; once webhooks are turned off
 * (no endpoint) an attempt fails without being retried. Shared by the delivery worker (queued,
 * retried) and the synchronous sandbox test (the application's `WebhookAttempts`).
 */
export class WebhookDeliverer implements WebhookAttempts {
  private readonly signers = new RecentCache<string, WebhookSigner>(SIGNER_CACHE);
  private readonly logger = new Logger('WebhookDeliverer');

  /** This turn's read of each platform's webhook configuration, shared by the attempts the turn starts. */
  private readonly targets = new TurnMemo<string, Target>();

  constructor(private readonly deps: DeliveryDeps) {}

  /**
   * The platform's endpoint now and its signer (cached per secret: a rotation makes a new one). The
   * attempts one turn of the event loop starts share one read (they were claimed together); an endpoint changed
   * meanwhile is used from the next turn on.
   */
  private target(platformId: string): Promise<Target> {
    return this.targets.get(platformId, () => this.readTarget(platformId));
  }

  private async readTarget(platformId: string): Promise<Target> {
    const { state } = await this.deps.runner.load(streams.webhooks(platformId), webhookConfigDecider);
    if (!state.keys || !state.webhookEndpoint) return { url: null };
    // A rotation of the secret makes a new signer.
    const cacheKey = `${platformId}\n${state.keys.sealedSecret}`;
    let signer = this.signers.get(cacheKey);
    if (!signer) {
      signer = new WebhookSigner(this.deps.box, platformId, state.keys, state.previousSecret, this.deps.signOnLoop);
      this.signers.set(cacheKey, signer);
    }
    return { url: state.webhookEndpoint, signer };
  }

  async deliver(
    request: DeliveryRequest,
    options: { answersAfter?: AnswersAfter } = {},
  ): Promise<{
    outcome: AttemptOutcome;
    url: string | null;
    result: SendResult;
    approval?: ApprovalReply;
    /** No answer came within the receiver timeout: the attempt held its slot for all of it. */
    timedOut: boolean;
  }> {
    const { url, signer } = await this.target(request.platformId);
    let result: SendResult;
    let outcome: AttemptOutcome;
    if (!url || !signer) {
      result = { latencyMs: 0, error: 'no webhook endpoint is configured (webhooks were turned off)' };
      outcome = 'FAILED';
    } else {
      const platformNow = await this.deps.clocks.now(request.platformId);
      const headers = await signer.headers(request.webhookId, request.body, this.deps.wallClock.now(), platformNow);
      const { timeoutMs, allowedHosts, resolve } = this.deps;
      const options = { timeoutMs, allowedHosts, ...(resolve ? { resolve } : {}) };
      result = await (this.deps.send ?? postWebhook)(url, request.body, headers, options);
      // The platform sees only the generic error; the operator sees why.
      if (result.cause) {
        this.logger.warn(`delivery ${request.deliveryId} (${request.platformId}) got no answer: ${result.cause}`);
      }
      outcome = attemptOutcome({
        statusCode: result.statusCode,
        attempt: request.attempt,
        maxAttempts: request.maxAttempts,
        webhookType: request.webhookType,
      });
    }
    const approval =
      request.webhookType === APPROVAL_WEBHOOK_TYPE && outcome === 'DELIVERED'
        ? approvalReply(result.statusCode, result.reply, requestedFieldsOf(request.body))
        : undefined;
    await this.record(request, url, result, outcome, approval, options.answersAfter ?? 'append');
    if (url) this.deps.observers?.webhookAttempt(outcome, result.latencyMs);
    // The sender's timer fires after the timeout (a millisecond early at most, by the event loop's rounding).
    const timedOut = !!url && result.statusCode === undefined && result.latencyMs >= this.deps.timeoutMs - 1;
    return { outcome, url, result, ...(approval ? { approval } : {}), timedOut };
  }

  /**
   * Records an attempt that was not sent (`reason`, shown to the platform) as a failed one: retried on the webhook
   * schedule like any failure, dead after the last attempt, TEST not retried; or, with `outcome` FAILED, one that no
   * longer matters, which ends the delivery.
   */
  async recordNotSent(
    request: DeliveryRequest,
    reason: string,
    outcome: AttemptOutcome = attemptOutcome({
      attempt: request.attempt,
      maxAttempts: request.maxAttempts,
      webhookType: request.webhookType,
    }),
  ): Promise<AttemptOutcome> {
    await this.record(request, null, { latencyMs: 0, error: reason }, outcome, undefined, 'append');
    return outcome;
  }

  /** Appends the attempt to the delivery's stream, attempted at the platform's time. */
  private async record(
    request: DeliveryRequest,
    url: string | null,
    result: SendResult,
    outcome: AttemptOutcome,
    approval: ApprovalReply | undefined,
    answersAfter: AnswersAfter,
  ): Promise<void> {
    const now = await this.deps.clocks.now(request.platformId);
    const attempt: DeliveryAttempt = {
      attempt: request.attempt,
      attemptedAt: now.toISOString(),
      ...(url ? { url } : {}),
      ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
      latencyMs: result.latencyMs,
      ...(result.responseBody !== undefined ? { responseBody: result.responseBody } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      outcome,
      ...(approval ? { approval } : {}),
      ...(outcome === 'RETRYING'
        ? { nextAttemptAt: new Date(now.getTime() + retryDelayMs(WEBHOOK_RETRY_POLICY, request.attempt)).toISOString() }
        : {}),
    };
    await this.deps.runner.run(
      webhookDeliveryStream(request.deliveryId),
      webhookDeliveryDecider,
      { type: 'RecordAttempt', attempt },
      {
        metadata: { platformId: request.platformId, actor: 'webhook-delivery', correlationId: request.webhookId },
        answersAfter,
      },
    );
  }
}
