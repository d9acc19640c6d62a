import { Inject, Injectable } from '@nestjs/common';
import { estimateWithdrawalFee, type WithdrawalFeeEstimate } from '#domain/crypto/withdrawal-fee.js';
import { notFound } from '#domain/errors.js';
import { isPublicId } from '#domain/primitives.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { READ_MODELS } from '../tokens.js';

export interface WithdrawalFeeInput {
  internalAccountId: string;
  currency: string;
  cryptoNetwork: string;
  amount: number;
  destinationAddress: string;
}

/** Estimates what a withdrawal from a crypto internal account would cost; nothing is recorded or moved. */
@Injectable()
export class WithdrawalFees {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModelStore) {}

  async estimate(platformId: string, input: WithdrawalFeeInput): Promise<WithdrawalFeeEstimate> {
    const id = input.internalAccountId;
    if (!isPublicId('InternalAccount', id)) throw notFound('INTERNAL_ACCOUNT', id);
    const account = await this.readModels.get<InternalAccountDoc>(Collections.internalAccounts, id);
    if (!account || account.platformId !== platformId) throw notFound('INTERNAL_ACCOUNT', id);
    return estimateWithdrawalFee({
      accountCurrency: account.currency,
      currency: input.currency,
      cryptoNetwork: input.cryptoNetwork,
      amount: input.amount,
    });
  }
}
