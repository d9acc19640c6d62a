import { createHash } from 'node:crypto';
import type { Decider } from '../../decider.js';
import { unreachable } from '../../decider.js';
import { conflict, notFound } from '../../errors.js';
import type { FundingAccounts } from './bank-credits.js';
import { effectsOf } from './bank-messages.js';
import { reconcile } from './reconciliation.js';
import type {
  BankMessage,
  BankRailState,
  InboxFile,
  InstructionKind,
  RailFile,
  RailCredit,
  RailInstruction,
  Reconciliation,
} from './bank-rail-types.js';

export type * from './bank-rail-types.js';

/**
 * One bank rail of one platform (a currency's bank account), as its stream records it: the payment instructions
 * sent to the bank, the files they went out in, and the files the bank sent back. Every id the bank sees derives
 * from this log (message ids from the count of files, end-to-end ids from the transactions' references) and is
 * recorded before its file is written, so a file written again after a crash is the same file, and the bank's answers
 * find their payments.
 */
export type BankRailEvent =
  | { type: 'BankInstructionQueued'; data: { platformId: string; instruction: RailInstruction } }
  | { type: 'BankFileCreated'; data: { platformId: string; file: RailFile } }
  | { type: 'BankFileWritten'; data: { platformId: string; messageId: string; writtenAt: string } }
  | { type: 'BankFileReceived'; data: { platformId: string; file: InboxFile } }
  | { type: 'BankFileQuarantined'; data: { platformId: string; file: InboxFile } }
  | { type: 'BankFileApplied'; data: { platformId: string; sha256: string; appliedAt: string } }
  | {
      type: 'BankEffectsRefused';
      data: { platformId: string; sha256: string; refused: { endToEndId: string; reason: string }[]; at: string };
    }
  | {
      type: 'BankCreditHeld';
      data: { platformId: string; credit: RailCredit; reason: string; heldAt: string; fileName: string };
    }
  | { type: 'BankCreditReturning'; data: { platformId: string; creditId: string; endToEndId: string; at: string } }
  | {
      type: 'BankCreditReturnSettled';
      data: { platformId: string; creditId: string; outcome: 'RETURNED' | 'REJECTED'; at: string };
    }
  | {
      type: 'BankCreditAssigned';
      data: { platformId: string; creditId: string; accountId: string; assignedAt: string };
    }
  | { type: 'BankStatementReconciled'; data: { platformId: string; currency: string; reconciliation: Reconciliation } };

export type BankRailCommand =
  | { type: 'QueueInstruction'; platformId: string; instruction: RailInstruction }
  | { type: 'CreateFile'; platformId: string; kind: InstructionKind; prefix: string; now: string }
  | { type: 'MarkFileWritten'; platformId: string; messageId: string; now: string }
  | {
      type: 'ReceiveFile';
      platformId: string;
      sha256: string;
      fileName: string;
      /** The file read, or why it could not be. */
      message: BankMessage | { unreadable: string };
      /** The rail's own account: a notification or statement of another account is refused whole. */
      account: { iban?: string; accountNumber?: string };
      /** The internal accounts the funding references of the file's credits name. */
      fundingAccounts?: FundingAccounts;
      now: string;
    }
  | { type: 'AssignCredit'; platformId: string; creditId: string; accountId: string; now: string }
  /** An operator sends a credit held in suspense back to its payer: a credit transfer to the payer's account. */
  | { type: 'ReturnCredit'; platformId: string; creditId: string; now: string }
  /** The bank booked a credit's return (RETURNED), or rejected it (OPEN again, in suspense). */
  | { type: 'SettleCreditReturn'; platformId: string; creditId: string; outcome: 'RETURNED' | 'REJECTED'; now: string }
  /** A credit that named a quote the quote could not take: held in suspense instead. */
  | { type: 'HoldCredit'; platformId: string; creditId: string; reason: string; now: string }
  | { type: 'MarkFileApplied'; platformId: string; sha256: string; now: string }
  /** Payments of an applied file that refused their step (each stays claimed on its payment for a later try). */
  | {
      type: 'RecordRefusedEffects';
      platformId: string;
      sha256: string;
      refused: { endToEndId: string; reason: string }[];
      now: string;
    };

/** `CT-1a2b3c4d-USD-000001`: 22 characters, within ISO 20022's 35 for a message id. */
export function messageIdFor(prefix: string, kind: InstructionKind, sequence: number): string {
  return `${kind === 'CREDIT_TRANSFER' ? 'CT' : 'DD'}-${prefix}-${String(sequence).padStart(6, '0')}`;
}

/** The part of a message id naming the rail: the platform's id hashed, and the currency. */
export function railPrefix(platformId: string, currency: string): string {
  return `${createHash('sha256').update(platformId).digest('hex').slice(0, 8)}-${currency}`;
}

const initialState = (): BankRailState => ({
  instructions: new Map(),
  unfiled: new Set(),
  unwritten: new Set(),
  files: new Map(),
  inbox: new Map(),
  quarantine: [],
  appliedEntries: new Map(),
  movements: [],
  exceptions: new Map(),
  fundedQuotes: new Map(),
  reconciliations: new Map(),
});

function receive(cmd: Extract<BankRailCommand, { type: 'ReceiveFile' }>, state: BankRailState): BankRailEvent[] {
  const base = { sha256: cmd.sha256, fileName: cmd.fileName, receivedAt: cmd.now, effects: [], problems: [] };
  const quarantined = (quarantineReason: string, extra: Partial<InboxFile> = {}): BankRailEvent[] => [
    {
      type: 'BankFileQuarantined',
      data: { platformId: cmd.platformId, file: { ...base, ...extra, quarantineReason } },
    },
  ];
  const earlier = state.inbox.get(cmd.sha256);
  if (earlier) return quarantined(`a copy of ${earlier.fileName}, received ${earlier.receivedAt}; not applied again`);
  if ('unreadable' in cmd.message) return quarantined(cmd.message.unreadable);
  const message = cmd.message;
  const header = { messageType: message.type, messageId: message.messageId };
  const context = { platformId: cmd.platformId, fundingAccounts: cmd.fundingAccounts ?? {} };
  const outcome = effectsOf(message, state, cmd.account, context);
  if ('refused' in outcome) return quarantined(outcome.refused, header);
  const { effects, problems } = outcome;
  const credits = outcome.credits ?? [];
  if (effects.length === 0 && credits.length === 0 && problems.length > 0)
    return quarantined(`no entry could be taken: ${problems[0].reason}`, { ...header, problems });
  const file: InboxFile = { ...base, ...header, effects, ...(credits.length ? { credits } : {}), problems };
  const received: BankRailEvent = { type: 'BankFileReceived', data: { platformId: cmd.platformId, file } };
  if (message.type !== 'STATEMENT') return [received];
  const reconciliation = reconcile(message, state, { fileName: cmd.fileName, now: cmd.now });
  const data = { platformId: cmd.platformId, currency: message.account.currency, reconciliation };
  return [received, { type: 'BankStatementReconciled', data }];
}

/** The credit transfer that sends a credit held in suspense back to its payer, queued with the credit's new status. */
function returnCredit(cmd: Extract<BankRailCommand, { type: 'ReturnCredit' }>, state: BankRailState): BankRailEvent[] {
  const exception = state.exceptions.get(cmd.creditId);
  if (!exception) throw notFound('BANK_CREDIT', cmd.creditId);
  if (exception.status === 'RETURNING' || exception.status === 'RETURNED') return [];
  if (exception.status !== 'OPEN') throw conflict('BANK_CREDIT_ASSIGNED', `${cmd.creditId} was assigned to an account`);
  const { credit } = exception;
  if (!credit.payer)
    throw conflict(
      'BANK_CREDIT_NOT_RETURNABLE',
      `the bank named no payer account for ${cmd.creditId}; assign it instead`,
    );
  const attempt = (exception.returns ?? 0) + 1;
  const endToEndId = `RT${attempt}-${cmd.creditId.split(':')[1].replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  const instruction: RailInstruction = {
    endToEndId,
    ref: { kind: 'credit', id: cmd.creditId },
    kind: 'CREDIT_TRANSFER',
    amount: credit.amount,
    currency: credit.currency,
    counterparty: credit.payer,
    requestedDate: cmd.now.slice(0, 10),
    queuedAt: cmd.now,
  };
  return [
    {
      type: 'BankCreditReturning',
      data: { platformId: cmd.platformId, creditId: cmd.creditId, endToEndId, at: cmd.now },
    },
    { type: 'BankInstructionQueued', data: { platformId: cmd.platformId, instruction } },
  ];
}

function decide(cmd: BankRailCommand, state: BankRailState): BankRailEvent[] {
  const platformId = cmd.platformId;
  switch (cmd.type) {
    case 'QueueInstruction':
      if (state.instructions.has(cmd.instruction.endToEndId)) return [];
      return [{ type: 'BankInstructionQueued', data: { platformId, instruction: cmd.instruction } }];
    case 'CreateFile': {
      const pending = [...state.unfiled]
        .map((id) => state.instructions.get(id))
        .filter((i): i is RailInstruction => i?.kind === cmd.kind);
      if (pending.length === 0) return [];
      const messageId = messageIdFor(cmd.prefix, cmd.kind, state.files.size + 1);
      const file: RailFile = {
        messageId,
        kind: cmd.kind,
        fileName: `${messageId}.xml`,
        endToEndIds: pending.map((i) => i.endToEndId),
        createdAt: cmd.now,
      };
      return [{ type: 'BankFileCreated', data: { platformId, file } }];
    }
    case 'MarkFileWritten': {
      const file = state.files.get(cmd.messageId);
      if (!file || file.writtenAt) return [];
      return [{ type: 'BankFileWritten', data: { platformId, messageId: cmd.messageId, writtenAt: cmd.now } }];
    }
    case 'ReceiveFile':
      return receive(cmd, state);
    case 'HoldCredit': {
      if (state.exceptions.has(cmd.creditId)) return [];
      const found = [...state.inbox.values()].flatMap((f) => (f.credits ?? []).map((credit) => ({ f, credit })));
      const held = found.find(({ credit }) => credit.id === cmd.creditId);
      if (!held) throw notFound('BANK_CREDIT', cmd.creditId);
      const { quoteId: _q, ...credit } = held.credit;
      const data = { platformId, credit, reason: cmd.reason, heldAt: cmd.now, fileName: held.f.fileName };
      return [{ type: 'BankCreditHeld', data }];
    }
    case 'AssignCredit': {
      const exception = state.exceptions.get(cmd.creditId);
      if (!exception) throw notFound('BANK_CREDIT', cmd.creditId);
      if (exception.status === 'ASSIGNED') {
        if (exception.assignedTo === cmd.accountId) return [];
        throw conflict('BANK_CREDIT_ASSIGNED', `${cmd.creditId} was already assigned to ${exception.assignedTo}`);
      }
      if (exception.status !== 'OPEN')
        throw conflict(`BANK_CREDIT_${exception.status}`, `${cmd.creditId} is ${exception.status.toLowerCase()}`);
      const data = { platformId, creditId: cmd.creditId, accountId: cmd.accountId, assignedAt: cmd.now };
      return [{ type: 'BankCreditAssigned', data }];
    }
    case 'ReturnCredit':
      return returnCredit(cmd, state);
    case 'SettleCreditReturn': {
      const exception = state.exceptions.get(cmd.creditId);
      if (exception?.status !== 'RETURNING') return [];
      const data = { platformId, creditId: cmd.creditId, outcome: cmd.outcome, at: cmd.now };
      return [{ type: 'BankCreditReturnSettled', data }];
    }
    case 'RecordRefusedEffects':
      return state.inbox.has(cmd.sha256) ? [refusedEffects(cmd)] : [];
    case 'MarkFileApplied': {
      const file = state.inbox.get(cmd.sha256);
      if (!file || file.appliedAt) return [];
      return [{ type: 'BankFileApplied', data: { platformId, sha256: cmd.sha256, appliedAt: cmd.now } }];
    }
    default:
      return unreachable(cmd);
  }
}

function refusedEffects(cmd: Extract<BankRailCommand, { type: 'RecordRefusedEffects' }>): BankRailEvent {
  return {
    type: 'BankEffectsRefused',
    data: { platformId: cmd.platformId, sha256: cmd.sha256, refused: cmd.refused, at: cmd.now },
  };
}

/** The payments of a file that refused their step, shown among its problems. */
function withRefusals(
  state: BankRailState,
  data: { sha256: string; refused: { endToEndId: string; reason: string }[] },
) {
  const file = state.inbox.get(data.sha256);
  const problems = data.refused.map((r) => ({ entry: `payment ${r.endToEndId}`, reason: r.reason }));
  if (file) file.problems = [...file.problems, ...problems];
  return state;
}

/** Sets `change` on the entry of `map` at `key`, when there is one. */
function amend<T extends object>(map: Map<string, T>, key: string, change: Partial<T>): void {
  const entry = map.get(key);
  if (entry) Object.assign(entry, change);
}

/** A file taken: its entries are known from now on, its movements booked, its credits given or held. */
function received(state: BankRailState, file: InboxFile): BankRailState {
  state.inbox.set(file.sha256, { ...file });
  for (const effect of file.effects) {
    state.appliedEntries.set(effect.entryKey, file.fileName);
    if (effect.movement) state.movements.push(effect.movement);
  }
  for (const credit of file.credits ?? []) {
    state.appliedEntries.set(credit.entryKey, file.fileName);
    state.movements.push(credit.movement);
    if (credit.quoteId) state.fundedQuotes.set(credit.quoteId, credit.id);
    else if (!credit.accountId) {
      const exception = { credit, status: 'OPEN' as const, receivedAt: file.receivedAt, fileName: file.fileName };
      state.exceptions.set(credit.id, exception);
    }
  }
  return state;
}

function evolve(state: BankRailState, event: BankRailEvent): BankRailState {
  switch (event.type) {
    case 'BankInstructionQueued':
      state.instructions.set(event.data.instruction.endToEndId, { ...event.data.instruction });
      state.unfiled.add(event.data.instruction.endToEndId);
      return state;
    case 'BankFileCreated': {
      const { file } = event.data;
      state.files.set(file.messageId, { ...file });
      state.unwritten.add(file.messageId);
      for (const id of file.endToEndIds) {
        const instruction = state.instructions.get(id);
        if (instruction) instruction.messageId = file.messageId;
        state.unfiled.delete(id);
      }
      return state;
    }
    case 'BankFileWritten':
      amend(state.files, event.data.messageId, { writtenAt: event.data.writtenAt });
      state.unwritten.delete(event.data.messageId);
      return state;
    case 'BankFileReceived':
      return received(state, event.data.file);
    case 'BankFileQuarantined':
      state.quarantine.push(event.data.file);
      if (!state.inbox.has(event.data.file.sha256)) state.inbox.set(event.data.file.sha256, event.data.file);
      return state;
    case 'BankFileApplied':
      amend(state.inbox, event.data.sha256, { appliedAt: event.data.appliedAt });
      return state;
    case 'BankEffectsRefused':
      return withRefusals(state, event.data);
    case 'BankCreditHeld': {
      const { credit, reason, heldAt, fileName } = event.data;
      state.exceptions.set(credit.id, { credit, status: 'OPEN', reason, receivedAt: heldAt, fileName });
      return state;
    }
    case 'BankCreditReturning': {
      const returns = (state.exceptions.get(event.data.creditId)?.returns ?? 0) + 1;
      amend(state.exceptions, event.data.creditId, { status: 'RETURNING', returns });
      return state;
    }
    case 'BankCreditReturnSettled': {
      const { outcome, at } = event.data;
      const change = outcome === 'RETURNED' ? { status: outcome, returnedAt: at } : { status: 'OPEN' as const };
      amend(state.exceptions, event.data.creditId, change);
      return state;
    }
    case 'BankCreditAssigned': {
      const exception = state.exceptions.get(event.data.creditId);
      if (exception)
        state.exceptions.set(event.data.creditId, {
          ...exception,
          status: 'ASSIGNED',
          assignedTo: event.data.accountId,
          assignedAt: event.data.assignedAt,
        });
      return state;
    }
    case 'BankStatementReconciled': {
      const { reconciliation } = event.data;
      state.baseline ??= { date: reconciliation.date, balance: reconciliation.openingBalance };
      state.reconciliations.set(reconciliation.date, reconciliation);
      return state;
    }
    default:
      return unreachable(event);
  }
}

export const bankRailDecider: Decider<BankRailState, BankRailCommand, BankRailEvent> = {
  initialState,
  evolve,
  decide,
};

/** The files received and not yet applied (a crash between recording and applying): applied again on restart. */
export function unappliedFiles(state: BankRailState): InboxFile[] {
  return [...state.inbox.values()].filter((f) => !f.quarantineReason && !f.appliedAt);
}

/** Files created and not yet recorded as written: written again (the same bytes) on restart. */
export function unwrittenFiles(state: BankRailState): RailFile[] {
  return [...state.unwritten].map((id) => state.files.get(id)).filter((f): f is RailFile => f !== undefined);
}
