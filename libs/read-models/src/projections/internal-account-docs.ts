import { createHash } from 'node:crypto';
import { depositNetwork, depositWallet } from '#domain/crypto/deposit-networks.js';
import { CRYPTO_CURRENCIES, currency } from '#domain/primitives.js';
import type { InternalAccountStatus, InternalAccountType } from '#domain/customers/customer.js';
import { railFor, type BankRailConfig } from '#domain/payments/rails/bank-rails.js';
import { bankDepositAccount, sandboxDepositAccount } from '#domain/payments/rails/deposit-accounts.js';
import type { Doc } from '../read-model-store.js';

/**
 * The internal-account read model: the InternalAccount resource plus `platformId` and the
 * ledger totals (decimal strings) its balance is derived from.
 */
export interface InternalAccountDoc extends Doc {
  platformId: string;
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  currency: string;
  balance: { amount: number; currency: ReturnType<typeof currency> };
  ledger: { debitsPosted: string; creditsPosted: string; debitsPending: string; creditsPending: string };
  fundingPaymentInstructions: unknown[];
  privateEnabled?: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * Deterministic sandbox bank details derived from the account id, so a rebuild yields the same.
 * `isPlatformAccount` tells whether the deposit lands in a platform-owned account or a customer's.
 */
function fundingInstructions(accountId: string, code: string, isPlatformAccount: boolean): unknown[] {
  const digits = BigInt('0x' + createHash('sha256').update(accountId).digest('hex').slice(0, 15))
    .toString()
    .padStart(12, '0')
    .slice(-12);
  const reference = `FUND-${accountId.split(':')[1].slice(0, 8).toUpperCase()}`;
  if (CRYPTO_CURRENCIES.has(code)) {
    const network = depositNetwork(code, undefined);
    return [
      {
        accountOrWalletInfo: depositWallet(code, network, `${network.toLowerCase()}sandbox${digits}`),
        instructionsNotes: 'Sandbox: use POST /sandbox/internal-accounts/{accountId}/fund',
        isPlatformAccount,
      },
    ];
  }
  return [
    {
      accountOrWalletInfo: sandboxDepositAccount(code, digits, reference),
      instructionsNotes: 'Include the reference so the deposit is credited to this account.',
      isPlatformAccount,
    },
  ];
}

export function openAccountDoc(input: {
  accountId: string;
  platformId: string;
  customerId?: string;
  type: InternalAccountType;
  currency: string;
  status: InternalAccountStatus;
  createdAt: string;
}): InternalAccountDoc {
  const { accountId, platformId, customerId, type, status, createdAt } = input;
  return {
    id: accountId,
    platformId,
    ...(customerId ? { customerId } : {}),
    type,
    status,
    currency: input.currency,
    balance: { amount: 0, currency: currency(input.currency) },
    ledger: { debitsPosted: '0', creditsPosted: '0', debitsPending: '0', creditsPending: '0' },
    fundingPaymentInstructions: fundingInstructions(accountId, input.currency, !customerId),
    ...(type === 'EMBEDDED_WALLET' ? { privateEnabled: false } : {}),
    createdAt,
    updatedAt: createdAt,
  };
}

/** What the platform's document says of how its accounts are paid into: a sandbox platform, or its bank rails. */
export interface FundingPlatform {
  sandbox?: boolean;
  rails?: BankRailConfig[];
}

/**
 * A production platform's accounts are paid into at its bank: the rail's account in their currency, with the
 * account's funding reference (its bank credits that carry it are credited to the account); none without a rail.
 */
function productionFunding(doc: InternalAccountDoc, rails: readonly BankRailConfig[] | undefined): unknown[] {
  const rail = railFor(rails, doc.currency);
  const sandboxed = doc.fundingPaymentInstructions[0] as { accountOrWalletInfo?: { reference?: string } } | undefined;
  const reference = sandboxed?.accountOrWalletInfo?.reference;
  if (!rail || !reference) return [];
  return [
    {
      accountOrWalletInfo: bankDepositAccount(doc.currency, rail.account, reference),
      instructionsNotes: 'Include the reference so the deposit is credited to this account.',
      isPlatformAccount: !doc.customerId,
    },
  ];
}

/** The API resource: internal fields stripped; funding instructions as the account's platform takes payments in. */
export function toInternalAccount(doc: InternalAccountDoc, platform?: FundingPlatform): Record<string, unknown> {
  const { platformId: _p, ledger: _l, currency: _c, ...stored } = doc;
  // Derived from the account alone, so documents stored in an earlier shape are shown in the current one.
  const resource = {
    ...stored,
    fundingPaymentInstructions: fundingInstructions(doc.id, doc.currency, !doc.customerId),
  };
  if (!platform || platform.sandbox) return resource;
  return { ...resource, fundingPaymentInstructions: productionFunding(doc, platform.rails) };
}
