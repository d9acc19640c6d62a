import { describe, expect, it } from '@jest/globals';
import { creditOriginator, sandboxOriginator } from './funding-originator.js';
import type { RailCredit } from './bank-rail-types.js';

const credit = (extra: Partial<RailCredit> = {}): RailCredit => ({
  id: 'BankCredit:00000000-0000-4000-8000-000000000001',
  entryKey: 'credit/NTRY-1',
  entryReference: 'NTRY-1',
  amount: '1000',
  currency: 'EUR',
  bookingDate: '2026-04-10',
  movement: { reference: 'NTRY-1', amount: '1000', creditDebit: 'CRDT', bookingDate: '2026-04-10' },
  ...extra,
});

describe('funding originators', () => {
  it('tells a bank credit’s payer, remittance and entry reference; nothing it does not know', () => {
    const payer = { name: 'Ada Lovelace', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };
    expect(creditOriginator(credit({ payer, remittanceInformation: 'TX-0A1B2C3D4E5F' }))).toEqual({
      accountHolderName: 'Ada Lovelace',
      accountIdentifier: 'DE89370400440532013000',
      bankIdentifier: 'COBADEFFXXX',
      remittanceInformation: 'TX-0A1B2C3D4E5F',
      traceNumber: 'NTRY-1',
    });
    const us = { name: 'Grace Hopper', accountNumber: '123456789', routingNumber: '021000021' };
    expect(creditOriginator(credit({ payer: us }))).toMatchObject({
      accountIdentifier: '123456789',
      bankIdentifier: '021000021',
    });
    expect(creditOriginator(credit())).toEqual({ traceNumber: 'NTRY-1' });
  });

  it('derives the sandbox’s payer from the quote, the same each time', () => {
    const input = { quoteId: 'Quote:00000000-0000-4000-8000-000000000002', reference: 'TX-0A1B2C3D4E5F' };
    expect(sandboxOriginator(input)).toEqual(sandboxOriginator(input));
    expect(sandboxOriginator(input)).not.toHaveProperty('accountHolderName');
    expect(sandboxOriginator({ ...input, paymentRail: 'RTP', holderName: 'Ada' })).toMatchObject({
      paymentRail: 'RTP',
      accountHolderName: 'Ada',
      remittanceInformation: 'TX-0A1B2C3D4E5F',
    });
  });
});
