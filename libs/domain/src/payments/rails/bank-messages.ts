import { formatAmount } from '../../primitives.js';
import { creditOf, type FundingAccounts } from './bank-credits.js';
import type {
  BankEntry,
  BankMessage,
  BankRailState,
  EntryProblem,
  RailCredit,
  RailEffect,
  RailInstruction,
} from './bank-rail-types.js';

export type { BankEntry, BankMessage, EntryProblem, RailEffect } from './bank-rail-types.js';

type CreditContext = { platformId: string; fundingAccounts: FundingAccounts };

/**
 * The lines of a status report: a report rejecting the whole file without lines rejects each of its payments, except
 * a rejection as a duplicate (DU01), which says the bank already has the file, not that its payments failed.
 */
function groupLines(message: Extract<BankMessage, { type: 'STATUS_REPORT' }>, state: BankRailState) {
  if (message.transactions.length > 0 || message.groupStatus !== 'RJCT' || message.groupReasonCode === 'DU01')
    return message.transactions;
  const file = state.files.get(message.originalMessageId);
  return (file?.endToEndIds ?? []).map((endToEndId) => ({
    endToEndId,
    status: 'RJCT',
    ...(message.groupReasonCode ? { reasonCode: message.groupReasonCode } : {}),
  }));
}

const ACCEPTED = new Set(['ACTC', 'ACCP', 'ACSP', 'ACSC', 'ACWC', 'ACFC', 'PDNG', 'RCVD', 'PART']);

function statusEffects(
  message: Extract<BankMessage, { type: 'STATUS_REPORT' }>,
  state: BankRailState,
): { effects: RailEffect[]; problems: EntryProblem[] } {
  const effects: RailEffect[] = [];
  const problems: EntryProblem[] = [];
  const seen = new Set<string>();
  const doubled = new Set<string>();
  for (const line of groupLines(message, state)) {
    const entry = `status of ${line.endToEndId}`;
    const instruction = state.instructions.get(line.endToEndId);
    const problem = (reason: string) => problems.push({ entry, reason });
    if (!instruction) problem(`unknown end-to-end id ${line.endToEndId}`);
    else if (instruction.messageId !== message.originalMessageId)
      problem(
        `${line.endToEndId} was sent in ${instruction.messageId ?? 'no file yet'}, not ${message.originalMessageId}`,
      );
    else if (seen.has(line.endToEndId)) {
      problem(`${line.endToEndId} appears twice in this report`);
      doubled.add(line.endToEndId);
    } else if (line.status !== 'RJCT' && !ACCEPTED.has(line.status)) problem(`unknown status ${line.status}`);
    else {
      const action = line.status === 'RJCT' ? 'REJECT' : 'ACCEPT';
      const entryKey = `status/${line.endToEndId}/${line.status}`;
      const earlier = state.appliedEntries.get(entryKey);
      if (earlier && action === 'REJECT') problem(`this rejection was already applied from ${earlier}`);
      else effects.push(effectOf(instruction, action, entryKey, line.reasonCode));
    }
    seen.add(line.endToEndId);
  }
  return withoutDoubled({ effects, problems }, doubled, (e) => [e.endToEndId, `status of ${e.endToEndId}`], 'report');
}

/**
 * A payment a file names twice is taken from none of its lines: the file contradicts itself, and which line is the
 * bank's is not for the rail to guess. `keyOf` gives an effect's key in `doubled` and the name of its line.
 */
function withoutDoubled(
  outcome: { effects: RailEffect[]; problems: EntryProblem[] },
  doubled: Set<string>,
  keyOf: (effect: RailEffect) => [key: string, entry: string],
  what = 'file',
): { effects: RailEffect[]; problems: EntryProblem[] } {
  const effects: RailEffect[] = [];
  const problems = [...outcome.problems];
  for (const effect of outcome.effects) {
    const [key, entry] = keyOf(effect);
    if (doubled.has(key)) problems.push({ entry, reason: `${effect.endToEndId} appears twice in this ${what}` });
    else effects.push(effect);
  }
  return { effects, problems };
}

function effectOf(
  instruction: RailInstruction,
  action: RailEffect['action'],
  entryKey: string,
  reasonCode?: string,
): RailEffect {
  return {
    endToEndId: instruction.endToEndId,
    ref: instruction.ref,
    kind: instruction.kind,
    action,
    entryKey,
    ...(reasonCode ? { reasonCode } : {}),
  };
}

const written = (amount: string, currency: string) => formatAmount(BigInt(amount), currency);

/** What a booked entry means for the instruction it names: the booking of a payout or collection, or its return. */
function entryAction(entry: BankEntry, instruction: RailInstruction): RailEffect['action'] | string {
  const out = instruction.kind === 'CREDIT_TRANSFER';
  const returned = entry.returnReasonCode !== undefined;
  const expected = out !== returned ? 'DBIT' : 'CRDT';
  if (entry.creditDebit !== expected)
    return `a ${entry.creditDebit} entry cannot ${returned ? 'return' : 'book'} a ${instruction.kind.toLowerCase()}`;
  if (entry.currency !== instruction.currency) return `currency ${entry.currency} differs from ${instruction.currency}`;
  if (entry.amount !== instruction.amount) {
    const expectedAmount = written(instruction.amount, instruction.currency);
    return `amount ${written(entry.amount, entry.currency)} differs from the instruction's ${expectedAmount}`;
  }
  return returned ? 'RETURN' : 'BOOK';
}

function entryEffects(
  entries: BankEntry[],
  state: BankRailState,
  context: CreditContext,
): { effects: RailEffect[]; credits?: RailCredit[]; problems: EntryProblem[] } {
  const effects: RailEffect[] = [];
  const credits: RailCredit[] = [];
  const problems: EntryProblem[] = [];
  /** The entry that first named each booking or return. */
  const keys = new Map<string, string>();
  const doubled = new Set<string>();
  for (const entry of entries) {
    if (entry.status !== 'BOOK') continue;
    const name = `entry ${entry.entryReference}`;
    const problem = (reason: string) => problems.push({ entry: name, reason });
    if (entry.creditDebit === 'CRDT' && !entry.endToEndId && entry.returnReasonCode === undefined) {
      const credit = creditOf(entry, state, context);
      if ('reason' in credit) problems.push(credit);
      else if (keys.has(credit.entryKey)) problem(`entry ${entry.entryReference} appears twice in this file`);
      else {
        credits.push(credit);
        keys.set(credit.entryKey, name);
      }
      continue;
    }
    const instruction = entry.endToEndId ? state.instructions.get(entry.endToEndId) : undefined;
    if (!instruction) {
      problem(
        entry.endToEndId
          ? `unknown end-to-end id ${entry.endToEndId}`
          : `a ${entry.creditDebit} of ${written(entry.amount, entry.currency)} that names no payment of this rail`,
      );
      continue;
    }
    const action = entryAction(entry, instruction);
    const entryKey = `entry/${instruction.endToEndId}/${action}`;
    const earlier = state.appliedEntries.get(entryKey);
    if (action !== 'BOOK' && action !== 'RETURN') problem(action);
    else if (earlier)
      problem(`${instruction.endToEndId} was already ${action === 'BOOK' ? 'booked' : 'returned'} by ${earlier}`);
    else if (keys.has(entryKey)) {
      problem(`${instruction.endToEndId} appears twice in this file`);
      doubled.add(entryKey);
    } else {
      const movement = {
        reference: instruction.endToEndId,
        amount: entry.amount,
        creditDebit: entry.creditDebit,
        bookingDate: entry.bookingDate,
      };
      effects.push({ ...effectOf(instruction, action, entryKey, entry.returnReasonCode), movement });
    }
    if (!keys.has(entryKey)) keys.set(entryKey, name);
  }
  const taken = withoutDoubled({ effects, problems }, doubled, (e) => [e.entryKey, keys.get(e.entryKey) ?? e.entryKey]);
  return { ...taken, ...(credits.length > 0 ? { credits } : {}) };
}

function sameAccount(a: { iban?: string; accountNumber?: string }, b: { iban?: string; accountNumber?: string }) {
  return a.iban ? a.iban === b.iban : a.accountNumber !== undefined && a.accountNumber === b.accountNumber;
}

/**
 * The effects a file from the bank has on this rail's payments, and the entries it cannot take (with reasons); or,
 * for a file that is not for this rail at all, why it is refused whole.
 */
export function effectsOf(
  message: BankMessage,
  state: BankRailState,
  account: { iban?: string; accountNumber?: string },
  context: CreditContext,
): { effects: RailEffect[]; credits?: RailCredit[]; problems: EntryProblem[] } | { refused: string } {
  if (message.type === 'STATUS_REPORT') {
    if (!state.files.has(message.originalMessageId))
      return { refused: `a status report on ${message.originalMessageId}, which this rail never sent` };
    return statusEffects(message, state);
  }
  if (!sameAccount(account, message.account))
    return {
      refused: `the file is for account ${message.account.iban ?? message.account.accountNumber}, not this rail's`,
    };
  if (message.type === 'STATEMENT') return { effects: [], problems: [] };
  return entryEffects(message.entries, state, context);
}
