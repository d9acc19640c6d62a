import { ACCOUNT_TYPES } from './account-types.js';
import type { AccountInfo } from './external-account.js';

/**
 * Accounts stored before the service took the public API's account types keep their original events
 * (the audit hash chain covers them). They are read through this upcaster: type and field names of that
 * time become today's, and a beneficiary given beside accountInfo moves into it.
 */
const RENAMED_FIELDS: Record<string, Record<string, string>> = {
  MXN_ACCOUNT: { clabe: 'clabeNumber' },
  CAD_ACCOUNT: { institutionNumber: 'bankCode', transitNumber: 'branchCode' },
  LIGHTNING: { address: 'lightningAddress' },
};

/** The type an account stored under a retired type name has today (IBAN accounts by their currency). */
function currentType(accountType: string, currency: string): string {
  switch (accountType) {
    case 'UPI':
      return 'INR_ACCOUNT';
    case 'PIX':
      return 'BRL_ACCOUNT';
    case 'IBAN_ACCOUNT':
      return currency === 'EUR' ? 'EUR_ACCOUNT' : currency === 'AED' ? 'AED_ACCOUNT' : 'SWIFT_ACCOUNT';
    default:
      return accountType;
  }
}

export interface StoredAccount {
  accountInfo: AccountInfo;
  currency: string;
  /** Before beneficiaries moved into accountInfo: `{fullName}` beside it. */
  beneficiary?: { fullName: string };
}

/** accountInfo as the API shows it: today's names, the beneficiary inside, and the account's payment rails. */
export function accountInfoView(account: StoredAccount): AccountInfo {
  const type = currentType(account.accountInfo.accountType, account.currency);
  const renames = RENAMED_FIELDS[type] ?? {};
  const info: AccountInfo = { accountType: type };
  for (const [name, value] of Object.entries(account.accountInfo))
    if (name !== 'accountType') info[renames[name] ?? name] = value;
  if (type === 'SWIFT_ACCOUNT' && account.accountInfo.accountType === 'IBAN_ACCOUNT' && typeof info.iban === 'string')
    info.country ??= info.iban.slice(0, 2);
  const spec = ACCOUNT_TYPES[type];
  if (spec?.beneficiary) {
    if (info.beneficiary === undefined && account.beneficiary)
      info.beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: account.beneficiary.fullName };
    info.paymentRails ??= [...spec.paymentRails];
  }
  return info;
}

/** The holder name a beneficiary check compares: the individual's full name or the business's legal name. */
export function beneficiaryName(info: AccountInfo): string | undefined {
  const b = info.beneficiary as { fullName?: unknown; legalName?: unknown } | undefined;
  const name = b?.fullName ?? b?.legalName;
  return typeof name === 'string' ? name : undefined;
}
