import { describe, expect, it } from '@jest/globals';
import { effectsOf, type BankEntry, type BankMessage } from './bank-messages.js';
import { bankRailDecider, type BankRailState, type RailInstruction } from './bank-rail-stream.js';

const ACCOUNT = { accountNumber: '7000123456' };

function instruction(endToEndId: string): RailInstruction {
  return {
    endToEndId,
    ref: { kind: 'transaction', id: `Transaction:${endToEndId}` },
    kind: 'CREDIT_TRANSFER',
    amount: '5000',
    currency: 'USD',
    counterparty: { name: 'Ada', accountNumber: '1234567201', routingNumber: '021000021' },
    requestedDate: '2026-11-28',
    queuedAt: '2026-11-28T10:00:00Z',
  };
}

/** A rail that sent E2E-A and E2E-B in one file, CT-1. */
function sent(): BankRailState {
  let state = bankRailDecider.initialState();
  for (const id of ['E2E-A', 'E2E-B'])
    state = bankRailDecider.evolve(state, {
      type: 'BankInstructionQueued',
      data: { platformId: 'Platform:1', instruction: instruction(id) },
    });
  const file = { messageId: 'CT-1', kind: 'CREDIT_TRANSFER' as const, fileName: 'CT-1.xml', createdAt: '' };
  return bankRailDecider.evolve(state, {
    type: 'BankFileCreated',
    data: { platformId: 'Platform:1', file: { ...file, endToEndIds: ['E2E-A', 'E2E-B'] } },
  });
}

const booking = (endToEndId: string, entryReference: string): BankEntry => ({
  entryReference,
  amount: '5000',
  currency: 'USD',
  creditDebit: 'DBIT',
  status: 'BOOK',
  bookingDate: '2026-11-28',
  endToEndId,
});

describe('a bank file that names one payment twice', () => {
  it('books neither entry of a notification naming a payout twice, and takes the others', () => {
    const message: BankMessage = {
      type: 'NOTIFICATION',
      messageId: 'N-1',
      account: { ...ACCOUNT, currency: 'USD' },
      entries: [booking('E2E-A', 'E1'), booking('E2E-B', 'E2'), booking('E2E-A', 'E3')],
    };
    const outcome = effectsOf(message, sent(), ACCOUNT, { platformId: 'Platform:p', fundingAccounts: {} });
    expect(outcome).toEqual({
      effects: [expect.objectContaining({ endToEndId: 'E2E-B', action: 'BOOK' })],
      problems: [
        { entry: 'entry E3', reason: 'E2E-A appears twice in this file' },
        { entry: 'entry E1', reason: 'E2E-A appears twice in this file' },
      ],
    });
  });

  it('takes no line of a status report naming a payment twice', () => {
    const message: BankMessage = {
      type: 'STATUS_REPORT',
      messageId: 'S-1',
      originalMessageId: 'CT-1',
      transactions: [
        { endToEndId: 'E2E-A', status: 'ACSC' },
        { endToEndId: 'E2E-A', status: 'RJCT', reasonCode: 'AC04' },
      ],
    };
    const outcome = effectsOf(message, sent(), ACCOUNT, { platformId: 'Platform:p', fundingAccounts: {} });
    expect(outcome).toEqual({
      effects: [],
      problems: [
        { entry: 'status of E2E-A', reason: 'E2E-A appears twice in this report' },
        { entry: 'status of E2E-A', reason: 'E2E-A appears twice in this report' },
      ],
    });
  });
});
