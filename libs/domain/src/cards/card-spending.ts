import { invalid } from '../errors.js';

/**
 * Spending controls of a card (modelled on Stripe Issuing's `spending_controls` and Lithic's auth rules): amounts in
 * the smallest unit of the card's currency, merchant categories as four-digit MCCs, countries as ISO 3166-1 alpha-2.
 * An absent field sets no rule. A card's own controls replace the platform's default (`cardSpendingControls` of the
 * platform configuration) as a whole.
 */
export interface SpendingControls {
  perAuthorizationLimit?: number;
  dailyLimit?: number;
  monthlyLimit?: number;
  allowedMerchantCategories?: string[];
  blockedMerchantCategories?: string[];
  allowedMerchantCountries?: string[];
}

export const SPENDING_DECLINE_REASONS = [
  'MERCHANT_CATEGORY_BLOCKED',
  'MERCHANT_CATEGORY_NOT_ALLOWED',
  'MERCHANT_COUNTRY_NOT_ALLOWED',
  'SPENDING_LIMIT_PER_AUTHORIZATION',
  'SPENDING_LIMIT_DAILY',
  'SPENDING_LIMIT_MONTHLY',
] as const;
export type SpendingDeclineReason = (typeof SPENDING_DECLINE_REASONS)[number];

/** The largest limit a control may state. */
export const MAX_SPENDING_LIMIT = 9_000_000_000_000_000;
/** At most this many entries in each list of categories or countries. */
export const MAX_SPENDING_LIST = 500;

/**
 * What counts towards the daily and monthly limits: the amounts of the card's approved authorizations in the UTC day
 * and month of the platform's clock (as Stripe counts approved authorizations: a reversal or an expiry does not give
 * the amount back, and a clearing above the authorized amount does not add to it).
 */
export interface SpendUsage {
  day: string;
  month: string;
  daily: bigint;
  monthly: bigint;
}

const utcDay = (at: string) => at.slice(0, 10);
const utcMonth = (at: string) => at.slice(0, 7);

export const noSpend = (): SpendUsage => ({ day: '', month: '', daily: 0n, monthly: 0n });

/** The usage as of `at`: a day or month that has ended starts again from zero. */
export function usageOn(usage: SpendUsage | undefined, at: string): SpendUsage {
  const day = utcDay(at);
  const month = utcMonth(at);
  if (!usage) return { day, month, daily: 0n, monthly: 0n };
  return {
    day,
    month,
    daily: usage.day === day ? usage.daily : 0n,
    monthly: usage.month === month ? usage.monthly : 0n,
  };
}

/**
 * The usage after an approval of `amount` at `at`. An approval dated before the window the usage already counts
 * (clocks of two processes a moment apart) is added to what the window shares with it.
 */
export function addSpend(usage: SpendUsage | undefined, amount: bigint, at: string): SpendUsage {
  const current = usage ?? noSpend();
  const day = utcDay(at);
  const month = utcMonth(at);
  if (day < current.day) {
    return { ...current, ...(month === current.month ? { monthly: current.monthly + amount } : {}) };
  }
  const next = usageOn(current, at);
  return { ...next, daily: next.daily + amount, monthly: next.monthly + amount };
}

/** What the controls look at of a merchant (card-types' Merchant). */
interface Merchant {
  mcc?: string;
  country?: string;
}

/** One authorization request as the controls see it. */
export interface SpendRequest {
  amount: bigint;
  merchant: Merchant;
  at: string;
  /**
   * What the authorization holds already when `amount` is an increment of it: the per-authorization limit counts both.
   */
  authorized?: bigint;
}

/**
 * The controls' verdict on one authorization request given what the card has spent (`usage`, its approvals recorded
 * before): the first control it breaks, in this order: merchant category (blocked, then not allowed), merchant
 * country, per-authorization limit, daily limit, monthly limit. A merchant without a category or country passes a
 * blocked list and fails an allowed list.
 */
export function spendingDecline(
  controls: SpendingControls | null | undefined,
  usage: SpendUsage | undefined,
  request: SpendRequest,
): SpendingDeclineReason | undefined {
  if (!controls) return undefined;
  const { mcc, country } = request.merchant;
  if (controls.blockedMerchantCategories && mcc !== undefined && controls.blockedMerchantCategories.includes(mcc))
    return 'MERCHANT_CATEGORY_BLOCKED';
  if (controls.allowedMerchantCategories && (mcc === undefined || !controls.allowedMerchantCategories.includes(mcc)))
    return 'MERCHANT_CATEGORY_NOT_ALLOWED';
  if (
    controls.allowedMerchantCountries &&
    (country === undefined || !controls.allowedMerchantCountries.includes(country))
  )
    return 'MERCHANT_COUNTRY_NOT_ALLOWED';
  const { amount } = request;
  const total = amount + (request.authorized ?? 0n);
  if (controls.perAuthorizationLimit !== undefined && total > BigInt(controls.perAuthorizationLimit))
    return 'SPENDING_LIMIT_PER_AUTHORIZATION';
  const current = usageOn(usage, request.at);
  if (controls.dailyLimit !== undefined && current.daily + amount > BigInt(controls.dailyLimit))
    return 'SPENDING_LIMIT_DAILY';
  if (controls.monthlyLimit !== undefined && current.monthly + amount > BigInt(controls.monthlyLimit))
    return 'SPENDING_LIMIT_MONTHLY';
  return undefined;
}

/** The decline reasons of the spending controls (the others are the card's state, its currency and the funds). */
export const isSpendingDecline = (reason: string | null | undefined): reason is SpendingDeclineReason =>
  (SPENDING_DECLINE_REASONS as readonly string[]).includes(reason ?? '');

type Input = { [K in keyof SpendingControls]?: SpendingControls[K] | null };
const LIMITS = ['perAuthorizationLimit', 'dailyLimit', 'monthlyLimit'] as const;
const LISTS = {
  allowedMerchantCategories: /^\d{4}$/,
  blockedMerchantCategories: /^\d{4}$/,
  allowedMerchantCountries: /^[A-Z]{2}$/,
} as const;
const LIST_RULE = {
  allowedMerchantCategories: 'four-digit merchant category codes',
  blockedMerchantCategories: 'four-digit merchant category codes',
  allowedMerchantCountries: 'ISO 3166-1 alpha-2 country codes',
} as const;

/**
 * Checks controls as given (400 INVALID_INPUT naming the field) and answers them without the fields that are null or
 * absent; null when none is left. Limits: integers from 1 to MAX_SPENDING_LIMIT. Lists: 1 to MAX_SPENDING_LIST
 * distinct codes. allowedMerchantCategories and blockedMerchantCategories are not given together.
 */
export function checkSpendingControls(input: Input | null | undefined, field: string): SpendingControls | null {
  if (input === null || input === undefined) return null;
  const out: SpendingControls = {};
  for (const key of LIMITS) {
    const value = input[key];
    if (value === null || value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1 || value > MAX_SPENDING_LIMIT)
      throw invalid(
        'INVALID_INPUT',
        `${key} must be an integer from 1 to ${MAX_SPENDING_LIMIT} in the smallest unit of the card's currency`,
        `${field}.${key}`,
      );
    out[key] = value;
  }
  for (const key of Object.keys(LISTS) as (keyof typeof LISTS)[]) {
    const value = input[key];
    if (value === null || value === undefined) continue;
    const where = `${field}.${key}`;
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SPENDING_LIST)
      throw invalid('INVALID_INPUT', `${key} must list 1 to ${MAX_SPENDING_LIST} codes (null removes it)`, where);
    value.forEach((code, i) => {
      if (typeof code !== 'string' || !LISTS[key].test(code))
        throw invalid('INVALID_INPUT', `${key} holds ${LIST_RULE[key]}`, `${where}[${i}]`);
    });
    if (new Set(value).size !== value.length) throw invalid('INVALID_INPUT', `${key} lists a code twice`, where);
    out[key] = [...value];
  }
  if (out.allowedMerchantCategories && out.blockedMerchantCategories)
    throw invalid(
      'INVALID_INPUT',
      'give allowedMerchantCategories or blockedMerchantCategories, not both',
      `${field}.blockedMerchantCategories`,
    );
  return Object.keys(out).length ? out : null;
}

/** The controls that apply to a card: its own, else the platform's default. */
export const effectiveControls = (
  card: { spendingControls?: SpendingControls | null },
  platformDefault: SpendingControls | null | undefined,
): SpendingControls | null => card.spendingControls ?? platformDefault ?? null;

/**
 * The card's controls on an authorization request, with what the card's stream counts as spent: the check before a
 * hold is placed, and the card decider's when the authorization is recorded (which sees every approval before).
 */
export function cardSpendingDecline(
  state: { card: { spendingControls?: SpendingControls | null }; spendUsage?: SpendUsage },
  request: {
    amount: bigint;
    merchant: Merchant;
    now: string;
    authorized?: bigint;
    defaultSpendingControls?: SpendingControls | null;
  },
): SpendingDeclineReason | undefined {
  const controls = effectiveControls(state.card, request.defaultSpendingControls);
  return spendingDecline(controls, state.spendUsage, {
    amount: request.amount,
    merchant: request.merchant,
    at: request.now,
    ...(request.authorized !== undefined ? { authorized: request.authorized } : {}),
  });
}
