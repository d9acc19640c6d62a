import { streams } from '#domain/primitives.js';
import { legTransferId, type PaymentLeg } from '#domain/payments/transactions/payment-plan.js';
import type { RailInstruction } from '#domain/payments/rails/bank-rail-stream.js';
import type { TransactionStatus } from '#domain/payments/transactions/transaction.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import type { SimBank } from './bank.js';
import { InvariantViolation } from './invariants.js';
import type { World } from './world.js';

const fail = (invariant: string, detail: string, stream: string): never => {
  throw new InvariantViolation(invariant, detail, [stream]);
};

const FAILED: ReadonlySet<TransactionStatus> = new Set(['REJECTED', 'FAILED', 'REFUNDED']);

interface Movement {
  /** Net money the payment's posted legs moved into its customer's internal account (negative: out of it). */
  net: bigint;
  /** Its hold still pending (neither posted nor voided). */
  holding: boolean;
}

/** What a payment's ledger legs did to its customer's internal account, from the platform's ledger stream. */
function movementOf(ledger: Map<string, { amount: bigint; pending: boolean; resolved?: 'post' | 'void' }>, id: string) {
  const leg = (name: PaymentLeg) => ledger.get(legTransferId(id, name));
  const hold = leg('hold');
  const posted = hold?.resolved === 'post' ? hold.amount : 0n;
  const amount = (name: PaymentLeg) => leg(name)?.amount ?? 0n;
  return {
    net: -posted + amount('credit') + amount('refund') - amount('reverse'),
    holding: hold !== undefined && hold.resolved === undefined,
  } satisfies Movement;
}

function ledgerOf(log: MemoryLog, platformId: string) {
  const transfers = new Map<string, { amount: bigint; pending: boolean; resolved?: 'post' | 'void' }>();
  for (const e of log.streams.get(streams.ledger(platformId)) ?? []) {
    const data = e.data as { id: string; pendingId?: string; amount?: string; pending?: boolean };
    if (e.type === 'TransferCreated')
      transfers.set(data.id, { amount: BigInt(data.amount!), pending: data.pending === true });
    else if (e.type === 'PendingTransferPosted' || e.type === 'PendingTransferVoided') {
      const pending = transfers.get(data.pendingId!);
      if (pending) {
        pending.resolved = e.type === 'PendingTransferPosted' ? 'post' : 'void';
        if (e.type === 'PendingTransferPosted') pending.amount = BigInt(data.amount!);
      }
    }
  }
  return transfers;
}

/**
 * The production platforms' bank rail against what the simulated bank did. Always: nothing is COMPLETED that the bank
 * did not book; the bank never takes a payment in two initiation messages nor books it twice; a payment completes at
 * most once and fails at most once. With `settled` (the rail drained, every answer delivered and taken): every payment
 * the bank booked (and did not return) is COMPLETED with its money moved, every one it rejected or returned is
 * REJECTED, FAILED or REFUNDED with its customer's money back, and none whose outcome was delivered is PROCESSING.
 */
export function checkRails(log: MemoryLog, world: World, bank: SimBank, settled = false): void {
  for (const [endToEndId, outcome] of bank.outcomes) {
    if (outcome.messages.size > 1)
      fail('rails: a payment is sent to the bank in one message', `${endToEndId} in ${[...outcome.messages]}`, 'bank');
    if (outcome.booked > 1) fail('rails: the bank executes a payment once', `${endToEndId} booked twice`, 'bank');
  }
  for (const platform of world.platforms.filter((p) => !p.sandbox)) {
    const railStream = streams.bankRail(platform.id, 'USD');
    const instructions = new Map<string, RailInstruction>();
    const refused = new Set<string>();
    for (const e of log.streams.get(railStream) ?? []) {
      if (e.type === 'BankInstructionQueued') {
        const { instruction } = e.data as { instruction: RailInstruction };
        instructions.set(instruction.endToEndId, instruction);
      }
      if (e.type === 'BankEffectsRefused')
        for (const r of (e.data as { refused: { endToEndId: string }[] }).refused) refused.add(r.endToEndId);
    }
    const ledger = settled ? ledgerOf(log, platform.id) : undefined;
    for (const [endToEndId, instruction] of instructions) {
      if (instruction.ref.kind !== 'transaction') continue;
      const stream = streams.transaction(instruction.ref.id);
      const statuses: TransactionStatus[] = [];
      for (const e of log.streams.get(stream) ?? [])
        if (e.type === 'TransactionStatusChanged')
          statuses.push((e.data as { transaction: { status: TransactionStatus } }).transaction.status);
      const outcome = bank.outcomes.get(endToEndId);
      const completions = statuses.filter((s) => s === 'COMPLETED').length;
      const failures = statuses.filter((s) => FAILED.has(s)).length;
      if (completions > 0 && !outcome?.booked)
        fail('rails: nothing is COMPLETED that the bank did not book', `${endToEndId} COMPLETED`, stream);
      if (completions > 1 || failures > 1)
        fail('rails: a payment completes once and fails once', `${endToEndId}: ${statuses.join(' ')}`, stream);
      if (!settled || !outcome || refused.has(endToEndId)) continue;
      const status = statuses.at(-1);
      const { net, holding } = movementOf(ledger!, instruction.ref.id);
      const told = outcome.delivered;
      if (told.has('REJECT') || told.has('RETURN')) {
        if (!status || !FAILED.has(status))
          fail(
            'rails: a payment the bank rejected or returned fails',
            `${endToEndId} ${told.has('RETURN') ? 'returned' : 'rejected'}, ${status}`,
            stream,
          );
        if (net !== 0n || holding)
          fail(
            'rails: a payment that failed gives the money back',
            `${endToEndId} moved ${net}${holding ? ', held' : ''}`,
            stream,
          );
      } else if (told.has('BOOK')) {
        if (status !== 'COMPLETED')
          fail('rails: a payment the bank booked completes', `${endToEndId} booked, ${status}`, stream);
        const expected =
          instruction.kind === 'CREDIT_TRANSFER' ? -BigInt(instruction.amount) : BigInt(instruction.amount);
        if (net !== expected || holding)
          fail(
            'rails: a completed payment moves its money once',
            `${endToEndId} moved ${net}, not ${expected}`,
            stream,
          );
      }
    }
  }
}
