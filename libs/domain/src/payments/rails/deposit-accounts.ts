import { railsFor } from '../rates/rate-table.js';
import type { BankRailAccount } from './bank-rails.js';

/**
 * The bank details a payer is told to pay into, one variant per currency as the public API's PaymentInstructions
 * name them (`USD_ACCOUNT` with account and routing numbers, `EUR_ACCOUNT` with an IBAN, `MXN_ACCOUNT` with a CLABE,
 * `GBP_ACCOUNT` with a sort code, `INR_ACCOUNT` with a UPI address, `BRL_ACCOUNT` with a PIX QR code, …). Every
 * variant also carries the `reference` that matches the deposit to what it pays for.
 */
export type DepositAccountInfo = Record<string, unknown> & { accountType: string; reference: string };

/** The payment rails each variant names, in the public API's words; the first ones are the instant ones. */
const DEPOSIT_RAILS: Record<string, readonly string[]> = {
  USD: ['ACH', 'WIRE', 'RTP'],
  EUR: ['SEPA', 'SEPA_INSTANT'],
  MXN: ['SPEI'],
  GBP: ['FASTER_PAYMENTS'],
  INR: ['UPI'],
  AED: ['BANK_TRANSFER'],
  PHP: ['BANK_TRANSFER'],
  NGN: ['BANK_TRANSFER'],
  CAD: ['BANK_TRANSFER'],
};

const SANDBOX_BANK = 'Sandbox Settlement Bank';

/**
 * The rails a deposit in `code` may arrive on: all of them for an account's funding, the instant ones for a quote
 * (whose rate is locked for minutes), where the public API names any; else all.
 */
export function depositRails(code: string, instantOnly = false): string[] {
  const all = DEPOSIT_RAILS[code] ?? ['BANK_TRANSFER'];
  if (!instantOnly) return [...all];
  const instant = new Set(
    railsFor(code)
      .filter((r) => r.instant)
      .map((r) => r.name),
  );
  const named = all.filter((r) => instant.has(r));
  return named.length > 0 ? named : [...all];
}

/** ISO 13616 check digits for `bban` in `country`. */
function iban(country: string, bban: string): string {
  const rearranged = bban + country + '00';
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** A CLABE: bank (3), city (3), account (11) and the control digit (weights 3, 7, 1). */
function clabe(first17: string): string {
  const weights = [3, 7, 1];
  const sum = [...first17].reduce((acc, d, i) => acc + ((Number(d) * weights[i % 3]) % 10), 0);
  return first17 + String((10 - (sum % 10)) % 10);
}

/** CRC-16/CCITT-FALSE, as a PIX "copia e cola" payload ends with. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A static PIX payload (EMV QR) for the key `key`, carrying `reference` as its transaction id. */
function pixPayload(key: string, reference: string): string {
  const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;
  const body =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', key)) +
    field('52', '0000') +
    field('53', '986') +
    field('58', 'BR') +
    field('59', 'SANDBOX SETTLEMENT') +
    field('60', 'SAO PAULO') +
    field('62', field('05', reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 25))) +
    '6304';
  return body + crc16(body);
}

/** The currency-specific part of the sandbox's deposit account numbered `digits` (12 digits). */
function sandboxFields(code: string, digits: string, reference: string): Record<string, unknown> {
  switch (code) {
    case 'USD':
      return { accountNumber: digits, routingNumber: '021000021', bankName: SANDBOX_BANK };
    case 'EUR':
      return { iban: iban('DE', '50010517' + digits.slice(-10)), swiftCode: 'SNDBDEFF', bankName: SANDBOX_BANK };
    case 'AED':
      return { iban: iban('AE', '0330000' + digits), swiftCode: 'SNDBAEAD', bankName: SANDBOX_BANK };
    case 'MXN':
      return { clabeNumber: clabe('646180' + digits.slice(-11)), bankName: SANDBOX_BANK };
    case 'GBP':
      return { sortCode: '040075', accountNumber: digits.slice(-8), bankName: SANDBOX_BANK };
    case 'INR':
      return { vpa: `fund.${digits}@sandbox` };
    case 'BRL':
      return { qrCode: pixPayload(`fund.${digits}@sandbox.example`, reference) };
    case 'NGN':
      return { accountNumber: digits.slice(-10), bankName: SANDBOX_BANK };
    case 'CAD':
      return { bankCode: '001', branchCode: '00011', accountNumber: digits, bankName: SANDBOX_BANK };
    default:
      return { accountNumber: digits, bankName: SANDBOX_BANK };
  }
}

/** The sandbox's settlement account in `code` numbered by `digits`, paid into with `reference`. */
export function sandboxDepositAccount(
  code: string,
  digits: string,
  reference: string,
  instantOnly = false,
): DepositAccountInfo {
  return {
    accountType: `${code}_ACCOUNT`,
    ...sandboxFields(code, digits, reference),
    ...(code === 'BRL' ? {} : { paymentRails: depositRails(code, instantOnly) }),
    reference,
  };
}

/** A production platform's account at its bank (a rail's account), in the variant of its currency. */
export function bankDepositAccount(code: string, account: BankRailAccount, reference: string): DepositAccountInfo {
  const bankName = account.bankName ?? (account.bic ? `BIC ${account.bic}` : `ABA ${account.routingNumber}`);
  const numbers = account.iban
    ? { iban: account.iban, ...(account.bic ? { swiftCode: account.bic } : {}) }
    : { accountNumber: account.accountNumber, routingNumber: account.routingNumber };
  return { accountType: `${code}_ACCOUNT`, ...numbers, bankName, paymentRails: depositRails(code), reference };
}
