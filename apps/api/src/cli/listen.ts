import { CommandRunner } from '#application/command-runner.js';
import { loadSecretsKey, SecretBox } from '#crypto/secret-box.js';
import { streams } from '#domain/primitives.js';
import { webhookConfigDecider, webhookSecretNotSet } from '#domain/webhooks/webhook-config.js';
import { effectivePort, refusedAddress, type AllowedHost } from '#net/address-policy.js';
import { systemResolver, type Resolver } from '#net/resolve-target.js';
import { platformActor, text, UsageError, type CliCommand, type CliContext } from './command.js';
import {
  listenStateFile,
  locateWebhook,
  readListenState,
  WebhookListener,
  type ListenCursor,
  type ListenReport,
} from './listener.js';

/** Where `listen` forwards to and what the address policy lets through for it. */
export interface ForwardTarget {
  url: string;
  allowedHosts: AllowedHost[];
  /** For a loopback name: only its loopback addresses. */
  resolve?: Resolver;
}

const isLoopbackName = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * The receiver named with --forward-to: an http(s) URL. A loopback one (`localhost`, 127.0.0.0/8, `[::1]`) is let
 * through the address policy for this command only, since receiving on one's own machine is its point (a
 * `localhost` name only to its loopback addresses); any other host is held to the policy deliveries are held to
 * (public addresses, or the operator's WEBHOOK_ALLOWED_HOSTS).
 */
export function forwardTarget(raw: string, operatorHosts: readonly AllowedHost[]): ForwardTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--forward-to ${raw} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to needs an http or https URL, not ${url.protocol}`);
  const hostname = url.hostname;
  const loopbackName = isLoopbackName(hostname);
  if (!loopbackName && refusedAddress(hostname) !== 'loopback')
    return { url: url.href, allowedHosts: [...operatorHosts] };
  const allowedHosts = [...operatorHosts, { hostname, port: effectivePort(url) }];
  if (!loopbackName) return { url: url.href, allowedHosts };
  const resolve: Resolver = async (name) =>
    (await systemResolver(name)).filter(({ address }) => refusedAddress(address) === 'loopback');
  return { url: url.href, allowedHosts, resolve };
}

/** One line per report: readable, or one JSON object with --json. */
function reportLine(report: ListenReport, json: boolean): string {
  if (json) return JSON.stringify(report);
  if (report.event === 'delivered') return `${report.timestamp}  ${report.type}  ${report.id}  [${report.status}]`;
  const why = report.status !== undefined ? `[${report.status}]` : `[no answer: ${report.error}]`;
  return `${new Date().toISOString()}  ${report.type}  ${report.id}  ${why} retrying in ${report.retryInMs} ms`;
}

/** Resolves when the process is asked to stop (Ctrl-C or SIGTERM). */
function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Where to start: after --from's webhook, or at the log's head. */
async function startingPoint(
  ctx: CliContext,
  platformId: string,
  stateFile: string,
): Promise<{ after?: bigint; last?: ListenCursor }> {
  const from = text(ctx, 'from');
  if (from === undefined) return { after: await ctx.infra.eventStore.headPosition() };
  if (!/^Webhook:[0-9a-f-]{36}$/.test(from)) throw new UsageError(`--from needs a Webhook:<uuid>, not ${from}`);
  const last: ListenCursor = await locateWebhook(ctx.infra.eventStore, platformId, from, readListenState(stateFile));
  return { ...(last.after === null ? {} : { after: BigInt(last.after) }), last };
}

/** `listen`: the platform's webhooks from the event log, forwarded to a receiver on the developer's machine. */
export const listenCommands: CliCommand[] = [
  {
    name: 'listen',
    synopsis: '--platform Platform:<uuid> --forward-to <url> [--from Webhook:<uuid>]',
    description:
      "forwards the platform's webhooks, as they happen, to a receiver on your machine (a loopback URL is\n" +
      'allowed here), signed as deliveries are (both signatures); no endpoint needs to be configured or\n' +
      'public. Starts at the head of the log, or right after --from (exactly the webhooks after it). One\n' +
      "line per webhook (timestamp on the platform's clock, type, id, the receiver's status); a failed one\n" +
      'is retried, with the ones after it waiting, until taken. The last one forwarded is kept in\n' +
      '<DATA_DIR>/listen/; Ctrl-C stops and prints it for --from',
    options: { platform: { type: 'string' }, 'forward-to': { type: 'string' }, from: { type: 'string' } },
    async run(ctx) {
      const { platformId } = await platformActor(ctx, 'listen');
      const forwardTo = text(ctx, 'forward-to');
      if (!forwardTo) throw new UsageError('listen needs --forward-to <url>');
      const target = forwardTarget(forwardTo, ctx.config.webhookAllowedHosts);
      const { state } = await ctx.app.get(CommandRunner).load(streams.webhooks(platformId), webhookConfigDecider);
      if (!state.keys) throw webhookSecretNotSet();
      const stateFile = listenStateFile(ctx.config.dataDir, platformId);
      const start = await startingPoint(ctx, platformId, stateFile);
      const json = ctx.values.json === true;
      const { eventStore, readModels, projections, clocks } = ctx.infra;
      const listener = new WebhookListener(
        {
          eventStore,
          readModels,
          projections,
          clocks,
          box: new SecretBox(loadSecretsKey(ctx.config.secretsKey)),
          platformId,
          url: target.url,
          timeoutMs: ctx.config.webhookTimeoutMs,
          allowedHosts: target.allowedHosts,
          ...(target.resolve ? { resolve: target.resolve } : {}),
          stateFile,
          report: (report) => console.log(reportLine(report, json)),
          warn: (message) => console.error(`listen: ${message}`),
        },
        start,
      );
      const stopped = stopRequested();
      await listener.start();
      const from = start.last ? `after ${start.last.webhookId}` : 'from now on';
      if (json)
        console.log(
          JSON.stringify({ event: 'ready', platformId, forwardTo: target.url, after: start.last?.webhookId ?? null }),
        );
      else console.error(`Forwarding ${platformId}'s webhooks to ${target.url} ${from}. Ctrl-C stops.`);
      await stopped;
      await listener.stop();
      const last = listener.cursor?.webhookId ?? null;
      return {
        data: { event: 'stopped', forwarded: listener.forwarded, last },
        compact: true,
        text: () =>
          last
            ? `stopped after ${listener.forwarded} webhook(s); resume with --from ${last}`
            : `stopped; nothing was forwarded`,
      };
    },
  },
];
