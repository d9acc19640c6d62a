import { accountInfoView, beneficiaryName } from '#domain/external-accounts/account-info-view.js';
import type { ExistingExternalAccount } from '#domain/external-accounts/external-account.js';
import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/ids.js';
import type { SandboxUmaOutcome } from '#domain/payments/lookups/lookup.js';
import { counterpartyBankAccount, noRail, railFor } from '#domain/payments/rails/bank-rails.js';
import { quoteDestinationPlan, transferPlan, umaDestinationPlan } from '#domain/payments/rails/sandbox-rail.js';
import type { PaymentPlan, RailPlan } from '#domain/payments/transactions/payment-plan.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { CommandRunner } from '../../command-runner.js';
import { isSandboxPlatform } from '../../platforms/platform-config.js';

/**
 * How money to or from outside the ledger moves, decided when a payment is created: on a sandbox platform by the
 * sandbox's rail (its magic values); on a production platform through the bank rail configured for the currency, or
 * not at all (400 UNSUPPORTED_PAYMENT_RAIL before anything is recorded). No production payment completes by itself.
 */
export class PaymentRails {
  constructor(private readonly runner: CommandRunner) {}

  /** A quote paying out to an external account. */
  async quotePayout(platformId: string, external: ExistingExternalAccount, field: string): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return quoteDestinationPlan(external.primaryIdentifier);
    return { rail: await this.bankRail(platformId, external, 'CREDIT_TRANSFER', field) };
  }

  /** POST /transfer-out (and agents' transfers out): a credit transfer; transfer-in: a direct debit. */
  async transfer(
    platformId: string,
    external: ExistingExternalAccount,
    direction: 'IN' | 'OUT',
    field: string,
  ): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return transferPlan(external.primaryIdentifier);
    const instruction = direction === 'OUT' ? 'CREDIT_TRANSFER' : 'DIRECT_DEBIT';
    return { rail: await this.bankRail(platformId, external, instruction, field) };
  }

  /** A quote paying a UMA address: this installation has no UMA network connection of its own outside the sandbox. */
  async umaPayout(platformId: string, outcome: SandboxUmaOutcome | undefined, field: string): Promise<PaymentPlan> {
    if (await isSandboxPlatform(this.runner, platformId)) return umaDestinationPlan(outcome);
    throw new DomainError(
      'invalid',
      'UNSUPPORTED_PAYMENT_RAIL',
      'this installation has no UMA network connection for production platforms; pay a bank account instead',
      { errors: [{ field, constraint: 'UNSUPPORTED_PAYMENT_RAIL', message: 'no UMA rail outside the sandbox' }] },
    );
  }

  private async bankRail(
    platformId: string,
    external: ExistingExternalAccount,
    instruction: RailPlan['instruction'],
    field: string,
  ): Promise<RailPlan> {
    const { state } = await this.runner.load(streams.platform(platformId), platformDecider);
    const rail = railFor(state.rails, external.currency);
    if (!rail) throw noRail(external.currency, field);
    const info = accountInfoView(external);
    const name = beneficiaryName(info) ?? external.beneficiaryVerifiedData?.fullName;
    if (!counterpartyBankAccount(info, name))
      throw refused(field, `a bank rail pays accounts with an IBAN or an account number, not ${info.accountType}`);
    if (instruction === 'DIRECT_DEBIT') {
      if (!rail.creditorSchemeId)
        throw refused(field, `the ${rail.currency} rail has no creditorSchemeId to collect direct debits under`);
      if (!external.directDebitMandate)
        throw refused(field, 'the external account has no direct debit mandate to pull under; record one first');
    }
    return { type: rail.type, instruction, currency: rail.currency };
  }
}

function refused(field: string, message: string): DomainError {
  return new DomainError('invalid', 'UNSUPPORTED_PAYMENT_RAIL', message, {
    errors: [{ field, constraint: 'UNSUPPORTED_PAYMENT_RAIL', message }],
  });
}
