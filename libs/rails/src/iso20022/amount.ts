import { CURRENCIES } from '#domain/primitives.js';
import { Amount } from './messages.js';
import { At, Iso20022Error, XmlNode, attr, ownText } from './xml.js';

/** ISO 20022 amounts allow at most 5 fraction digits and an ISO 4217 code of three capital letters. */
const MAX_XML_DECIMALS = 5;
const CURRENCY = /^[A-Z]{3}$/;

/** Decimals of a currency: the service's table, 2 for any other. */
export function decimalsOf(currency: string): number {
  return CURRENCIES.get(currency)?.decimals ?? 2;
}

/** Exact decimal text of `minor` units at `decimals` places (123456, 2 -> "1234.56"); never via floating point. */
export function decimalText(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${whole}` : whole;
}

/** The text a writer puts in an amount element; refuses what the schema cannot carry. */
export function formatAmount(amount: Amount, where: string): string {
  if (!CURRENCY.test(amount.currency))
    throw new Iso20022Error(`${where}: currency ${amount.currency} is not a 3-letter ISO 4217 code`);
  const decimals = decimalsOf(amount.currency);
  if (decimals > MAX_XML_DECIMALS)
    throw new Iso20022Error(`${where}: ${amount.currency} has ${decimals} decimals, more than ISO 20022 carries`);
  if (typeof amount.minor !== 'bigint' || amount.minor < 0n)
    throw new Iso20022Error(`${where}: amount must be a non-negative bigint of minor units`);
  return decimalText(amount.minor, decimals);
}

/** A decimal as an integer and a scale: "12.5" -> { units: 125n, scale: 1 }. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parses xs:decimal text exactly; undefined when it is not a decimal. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const fraction = m[3] ?? '';
  const units = BigInt((m[2] || '0') + fraction);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

export function sameDecimal(a: Decimal, b: Decimal): boolean {
  const scale = Math.max(a.scale, b.scale);
  return a.units * 10n ** BigInt(scale - a.scale) === b.units * 10n ** BigInt(scale - b.scale);
}

/** Reads an amount element's text and currency, refusing anything that is not exact in the currency. */
export function parseAmount(value: string, currency: string | undefined, where: string): Amount {
  if (currency === undefined || !CURRENCY.test(currency))
    throw new Iso20022Error(`${where}: currency ${currency ?? '(missing)'} is not a 3-letter ISO 4217 code`);
  const d = parseDecimal(value);
  if (!d) throw new Iso20022Error(`${where}: amount ${value} is not a number`);
  if (d.units < 0n || value.trim().startsWith('-')) throw new Iso20022Error(`${where}: amount ${value} is negative`);
  const decimals = decimalsOf(currency);
  if (d.scale > decimals)
    throw new Iso20022Error(`${where}: amount ${value} has more than ${decimals} decimals for ${currency}`);
  return { minor: d.units * 10n ** BigInt(decimals - d.scale), currency };
}

/** CtrlSum: the sum of the amounts irrespective of currency, as exact decimal text. */
export function controlSum(amounts: Amount[]): string {
  const scale = Math.max(0, ...amounts.map((a) => decimalsOf(a.currency)));
  const total = amounts.reduce((sum, a) => sum + a.minor * 10n ** BigInt(scale - decimalsOf(a.currency)), 0n);
  return decimalText(total, scale);
}

/** Refuses a stated NbOfTxs/CtrlSum that disagrees with the transactions present. */
export function checkTotals(where: string, stated: { count?: string; sum?: string }, amounts: Amount[]): void {
  if (
    stated.count !== undefined &&
    (!/^\d{1,15}$/.test(stated.count) || BigInt(stated.count) !== BigInt(amounts.length))
  )
    throw new Iso20022Error(`${where}/NbOfTxs is ${stated.count} but the file holds ${amounts.length} transactions`);
  if (stated.sum === undefined) return;
  const sum = parseDecimal(stated.sum);
  const actual = controlSum(amounts);
  if (!sum || !sameDecimal(sum, parseDecimal(actual)!))
    throw new Iso20022Error(`${where}/CtrlSum is ${stated.sum} but the transactions add up to ${actual}`);
}

/** An amount element (InstdAmt, Amt): the decimal text, its currency in the Ccy attribute. */
export function amountXml(amount: Amount, where: string): XmlNode {
  return { '@_Ccy': amount.currency, '#text': formatAmount(amount, where) };
}

/** Reads an amount element (its text and Ccy); `where` names it in errors. */
export function readAmount(amt: At, where = amt.path): Amount {
  return parseAmount(ownText(amt), attr(amt, 'Ccy'), where);
}
