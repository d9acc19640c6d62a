import type {
  BankEntry,
  BankMessage,
  BankRailState,
  RailMovement,
  Reconciliation,
  ReconciliationBreak,
} from './bank-rail-types.js';

type Statement = Extract<BankMessage, { type: 'STATEMENT' }>;

const signed = (m: { amount: string; creditDebit: 'CRDT' | 'DBIT' }) =>
  m.creditDebit === 'CRDT' ? BigInt(m.amount) : -BigInt(m.amount);

const sum = (list: { amount: string; creditDebit: 'CRDT' | 'DBIT' }[]) => list.reduce((t, m) => t + signed(m), 0n);

/** The reference a statement entry is matched by: the end-to-end id it names, else the bank's entry reference. */
const referenceOf = (entry: BankEntry) => entry.endToEndId ?? entry.entryReference;

/**
 * The ledger's view of the bank account on `date`: its balance at the start of the day (the first statement's opening
 * balance plus every movement booked since, before `date`) and the day's movements.
 */
function ledgerView(state: BankRailState, statement: Statement) {
  const baseline = state.baseline ?? { date: statement.date, balance: statement.openingBalance };
  const since = state.movements.filter((m) => m.bookingDate >= baseline.date);
  const opening = BigInt(baseline.balance) + sum(since.filter((m) => m.bookingDate < statement.date));
  return { opening, day: since.filter((m) => m.bookingDate === statement.date) };
}

/** Pairs each booked statement entry with a movement (same reference and direction); what stays alone is a break. */
function matchEntries(entries: BankEntry[], day: RailMovement[], all: RailMovement[], date: string) {
  const breaks: ReconciliationBreak[] = [];
  const unmatchedDay = new Set(day);
  const unexplained = { statement: 0n, ledger: 0n };
  for (const entry of entries.filter((e) => e.status === 'BOOK')) {
    const reference = referenceOf(entry);
    const same = (m: RailMovement) => m.reference === reference && m.creditDebit === entry.creditDebit;
    const movement = [...unmatchedDay].find(same) ?? all.find((m) => same(m) && m.bookingDate !== date);
    if (!movement) {
      breaks.push({
        kind: 'ENTRY_NOT_IN_LEDGER',
        reference,
        statementAmount: entry.amount,
        detail: `a ${entry.creditDebit} of ${entry.amount} on the statement that the ledger does not hold`,
      });
      unexplained.statement += signed(entry);
      continue;
    }
    unmatchedDay.delete(movement);
    if (movement.amount !== entry.amount) {
      breaks.push({
        kind: 'AMOUNT_DIFFERS',
        reference,
        statementAmount: entry.amount,
        ledgerAmount: movement.amount,
        detail: `the statement shows ${entry.amount}, the ledger ${movement.amount}`,
      });
      unexplained.statement += signed(entry) - signed(movement);
    }
    if (movement.bookingDate !== date)
      breaks.push({
        kind: 'DATE_DIFFERS',
        reference,
        ledgerAmount: movement.amount,
        detail: `booked on ${date} by the statement, on ${movement.bookingDate} by the ledger`,
      });
  }
  for (const movement of unmatchedDay) {
    breaks.push({
      kind: 'MOVEMENT_NOT_ON_STATEMENT',
      reference: movement.reference,
      ledgerAmount: movement.amount,
      detail: `a ${movement.creditDebit} of ${movement.amount} the ledger booked on ${date} that the statement lacks`,
    });
    unexplained.ledger += signed(movement);
  }
  return { breaks, unexplained };
}

/**
 * Reconciles a day's statement against the rail's ledger movements: every booked entry matched to a movement of that
 * day, every movement of the day to an entry; the opening balance equal to the ledger's; the closing balance equal to
 * the ledger's once the entry breaks are accounted for (a closing difference they explain is not reported again).
 */
export function reconcile(
  statement: Statement,
  state: BankRailState,
  file: { fileName: string; now: string },
): Reconciliation {
  const { opening, day } = ledgerView(state, statement);
  const { breaks, unexplained } = matchEntries(statement.entries, day, state.movements, statement.date);
  const expectedClosing = opening + sum(day);
  if (BigInt(statement.openingBalance) !== opening)
    breaks.push({
      kind: 'OPENING_BALANCE_DIFFERS',
      statementAmount: statement.openingBalance,
      ledgerAmount: opening.toString(),
      detail: `the statement opens at ${statement.openingBalance}, the ledger at ${opening}`,
    });
  const explainedClosing =
    BigInt(statement.closingBalance) - unexplained.statement + unexplained.ledger - BigInt(statement.openingBalance);
  if (explainedClosing + opening !== expectedClosing)
    breaks.push({
      kind: 'CLOSING_BALANCE_DIFFERS',
      statementAmount: statement.closingBalance,
      ledgerAmount: expectedClosing.toString(),
      detail: `the statement closes at ${statement.closingBalance}, the ledger at ${expectedClosing}`,
    });
  return {
    date: statement.date,
    statementId: statement.statementId,
    messageId: statement.messageId,
    fileName: file.fileName,
    openingBalance: statement.openingBalance,
    closingBalance: statement.closingBalance,
    expectedOpeningBalance: opening.toString(),
    expectedClosingBalance: expectedClosing.toString(),
    breaks,
    closed: breaks.length === 0,
    reconciledAt: file.now,
  };
}
