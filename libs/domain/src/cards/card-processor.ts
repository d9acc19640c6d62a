import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Decider } from '../decider.js';
import { invalid } from '../errors.js';
import { publicId } from '../primitives.js';
import { uuidFromName } from '../webhooks/webhook-ids.js';

/**
 * The card processor's side of a platform: the HMAC secret its messages are signed with, how long the service may
 * take to decide an authorization, and what it answers when it cannot decide in time. One stream per platform
 * (`cardprocessor-<uuid>`), apart from the platform's other configuration.
 */
export type StandInDecision = 'APPROVE' | 'DECLINE';

/** The decision deadline until a platform sets one, and the largest it may set (what processors allow). */
export const DEFAULT_DECISION_DEADLINE_MS = 1500;
export const MAX_DECISION_DEADLINE_MS = 3000;
export const MIN_DECISION_DEADLINE_MS = 1;
/** How far a message's timestamp may be from the platform's clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface CardProcessorSettings {
  decisionDeadlineMs: number;
  standInDecision: StandInDecision;
}

export interface CardProcessorState extends CardProcessorSettings {
  /** The HMAC secret, sealed with the service's secret box; absent until the platform sets one. */
  sealedSecret?: string;
  secretSetAt?: string;
}

export type CardProcessorCommand =
  | { type: 'SetCardProcessorSecret'; platformId: string; sealedSecret: string; now: string }
  | { type: 'ConfigureCardProcessor'; platformId: string; changes: Partial<CardProcessorSettings>; now: string };

export type CardProcessorEvent =
  | { type: 'CardProcessorSecretSet'; data: { platformId: string; sealedSecret: string; setAt: string } }
  | { type: 'CardProcessorConfigured'; data: { platformId: string } & CardProcessorSettings };

export const cardProcessorStream = (platformId: string) => `cardprocessor-${platformId.split(':')[1]}`;

const initialState = (): CardProcessorState => ({
  decisionDeadlineMs: DEFAULT_DECISION_DEADLINE_MS,
  standInDecision: 'DECLINE',
});

/** Refuses a deadline outside 1..MAX_DECISION_DEADLINE_MS milliseconds. */
export function checkDecisionDeadline(ms: number): void {
  if (!Number.isInteger(ms) || ms < MIN_DECISION_DEADLINE_MS || ms > MAX_DECISION_DEADLINE_MS)
    throw invalid(
      'INVALID_INPUT',
      `decisionDeadlineMs must be an integer from ${MIN_DECISION_DEADLINE_MS} to ${MAX_DECISION_DEADLINE_MS}`,
      'decisionDeadlineMs',
    );
}

export const cardProcessorDecider: Decider<CardProcessorState, CardProcessorCommand, CardProcessorEvent> = {
  initialState,
  evolve: (state, event) =>
    event.type === 'CardProcessorSecretSet'
      ? { ...state, sealedSecret: event.data.sealedSecret, secretSetAt: event.data.setAt }
      : { ...state, decisionDeadlineMs: event.data.decisionDeadlineMs, standInDecision: event.data.standInDecision },
  decide: (command, state) => {
    if (command.type === 'SetCardProcessorSecret') {
      const data = { platformId: command.platformId, sealedSecret: command.sealedSecret, setAt: command.now };
      return [{ type: 'CardProcessorSecretSet', data }];
    }
    const next = { decisionDeadlineMs: state.decisionDeadlineMs, standInDecision: state.standInDecision };
    Object.assign(next, command.changes);
    checkDecisionDeadline(next.decisionDeadlineMs);
    if (next.decisionDeadlineMs === state.decisionDeadlineMs && next.standInDecision === state.standInDecision)
      return [];
    return [{ type: 'CardProcessorConfigured', data: { platformId: command.platformId, ...next } }];
  },
};

/**
 * The authorization a processor's network transaction id names on a platform: derived, so a replayed message finds
 * the authorization its first delivery recorded, in any process.
 */
export const processorAuthorizationId = (platformId: string, networkTransactionId: string): string =>
  publicId('CardAuthorization', uuidFromName(`card-processor:${platformId}:authorization:${networkTransactionId}`));

/** The stream recording the answer to one follow-up message (clearing, refund, reversal) of a platform. */
export const processorMessageStream = (platformId: string, type: string, networkTransactionId: string): string =>
  `cardprocessormessage-${uuidFromName(`card-processor:${platformId}:${type}:${networkTransactionId}`)}`;

/**
 * A hold an authorization places on a funding source for an amount, with an id derived from the three: placing it
 * again is a no-op, and a stand-in answer and a late decision of another amount (a partial approval) hold apart,
 * the one whose outcome is not recorded being released.
 */
export const processorHoldTransferId = (authorizationId: string, fundingSourceId: string, amount: bigint): string =>
  publicId('Transfer', uuidFromName(`card-processor-hold:${authorizationId}:${fundingSourceId}:${amount}`));

/** The ledger leg of a refund message: derived from the message, so a replay does not refund twice. */
export const processorReturnTransferId = (platformId: string, networkTransactionId: string): string =>
  publicId('Transfer', uuidFromName(`card-processor-return:${platformId}:${networkTransactionId}`));

/** `hex(HMAC-SHA256(secret, "<t>.<raw body>"))`: what the processor sends as `v1`. */
export function processorSignature(secret: string, timestamp: number | string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header's parts, `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, or undefined when it is not of that form. */
export function parseProcessorSignature(header: string | undefined): { t: number; v1: string[] } | undefined {
  if (!header || header.length > 1024) return undefined;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const [key, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}

/**
 * Whether a message is signed with `secret`: a well-formed header, a timestamp within the tolerance of `nowSeconds`,
 * and a `v1` equal (in constant time) to the HMAC of the timestamp and the raw body. The reason when it is not.
 */
export function verifyProcessorSignature(input: {
  header: string | undefined;
  secret: string;
  rawBody: Buffer;
  nowSeconds: number;
  toleranceSeconds?: number;
  /** The header's name in the reason (other signed senders, such as the KYC provider, use the same scheme). */
  headerName?: string;
}): { valid: true } | { valid: false; reason: string } {
  const parsed = parseProcessorSignature(input.header);
  const name = input.headerName ?? 'X-Processor-Signature';
  if (!parsed) return { valid: false, reason: `${name} must be t=<unix seconds>,v1=<hex HMAC-SHA256>` };
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(input.nowSeconds - parsed.t) > tolerance)
    return { valid: false, reason: `the signature's timestamp is more than ${tolerance} seconds from the clock` };
  const expected = Buffer.from(processorSignature(input.secret, parsed.t, input.rawBody), 'hex');
  const matches = parsed.v1.some((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected));
  return matches ? { valid: true } : { valid: false, reason: 'the signature does not match the body' };
}

/** What the service answers a card processor's message (amounts as decimal strings; JSON numbers at the edge). */
export interface ProcessorAnswer {
  decision: 'APPROVED' | 'DECLINED';
  approvedAmount: string;
  declineReason?: string;
  authorizationId: string;
  cardTransactionId?: string;
}

export type ProcessorMessageType = 'INCREMENTAL_AUTHORIZATION' | 'CLEARING' | 'REFUND' | 'REVERSAL';

export interface ProcessorMessageState {
  answer?: ProcessorAnswer;
}

export interface RecordProcessorAnswer {
  type: 'RecordProcessorAnswer';
  platformId: string;
  messageType: ProcessorMessageType;
  networkTransactionId: string;
  answer: ProcessorAnswer;
  now: string;
}

export interface ProcessorMessageAnswered {
  type: 'CardProcessorMessageAnswered';
  data: Omit<RecordProcessorAnswer, 'type' | 'now'> & { answeredAt: string };
}

/** A follow-up message's answer, recorded once: the first answer stands and a replay gets it again. */
export const processorMessageDecider: Decider<ProcessorMessageState, RecordProcessorAnswer, ProcessorMessageAnswered> =
  {
    initialState: () => ({}),
    evolve: (state, event) => (state.answer ? state : { answer: event.data.answer }),
    decide: ({ type: _type, now, ...fields }, state) =>
      state.answer ? [] : [{ type: 'CardProcessorMessageAnswered', data: { ...fields, answeredAt: now } }],
  };
