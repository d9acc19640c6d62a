import { createHash } from 'node:crypto';
import type { RailCredit } from './bank-rail-types.js';

/**
 * Who paid a real-time funded payment in, as the public API shows it on a REALTIME_FUNDING source: every field is
 * filled on a best-effort basis from what the rail the money arrived on tells.
 */
export interface FundingOriginator {
  /** The originator's (sender's) name. */
  accountHolderName?: string;
  /** The originator's account number or IBAN; masked where the rail masks it. */
  accountIdentifier?: string;
  bankName?: string;
  /** The originating bank's routing number, BIC or SWIFT code. */
  bankIdentifier?: string;
  /** The rail the funds arrived on. */
  paymentRail?: string;
  /** What the originator wrote with the payment. */
  remittanceInformation?: string;
  /** The originator's own end-to-end reference. */
  endToEndId?: string;
  /** The rail's tracking id of the payment (the bank's entry reference). */
  traceNumber?: string;
}

const defined = (fields: FundingOriginator): FundingOriginator =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== '')) as FundingOriginator;

/** What a booked bank credit tells of its payer. */
export function creditOriginator(credit: RailCredit): FundingOriginator {
  const payer = credit.payer;
  return defined({
    accountHolderName: payer?.name,
    accountIdentifier: payer?.iban ?? payer?.accountNumber,
    bankIdentifier: payer?.bic ?? payer?.routingNumber,
    remittanceInformation: credit.remittanceInformation,
    traceNumber: credit.entryReference,
  });
}

/**
 * The sandbox's simulated payer of a quote's payment instructions: the paying customer at the sandbox's
 * originating bank, on the first rail the instructions name, with the reference as its remittance information.
 * Derived from the quote, so the same payment always shows the same originator.
 */
export function sandboxOriginator(input: {
  quoteId: string;
  reference: string;
  paymentRail?: string;
  holderName?: string;
}): FundingOriginator {
  const hash = createHash('sha256').update(`originator/${input.quoteId}`).digest('hex');
  const digits = BigInt('0x' + hash.slice(0, 16))
    .toString()
    .padStart(15, '0')
    .slice(-15);
  return defined({
    accountHolderName: input.holderName,
    accountIdentifier: `****${digits.slice(-4)}`,
    bankName: 'Sandbox Originating Bank',
    bankIdentifier: '021000021',
    paymentRail: input.paymentRail,
    remittanceInformation: input.reference,
    endToEndId: `E2E-${hash.slice(16, 24)}`,
    traceNumber: digits,
  });
}
