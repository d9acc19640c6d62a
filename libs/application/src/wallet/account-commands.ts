import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { sealToClientPublicKey } from '#crypto/session-keys.js';
import { conflict } from '#domain/errors.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import { IDS, type Actor } from '../tokens.js';
import { SignedRetryService, type SignedRequest, type SignedResult } from './signed-retry.service.js';
import { WalletAccounts } from './wallet-accounts.js';
import { WalletSeedVault } from './wallet-seed.js';
import { effectId } from '../idempotency/effect-ids.js';

export class SetPrivateEnabledCommand {
  constructor(
    readonly accountId: string,
    readonly privateEnabled: boolean,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}
export class ExportWalletCommand {
  constructor(
    readonly accountId: string,
    readonly clientPublicKey: string,
    readonly signed: SignedRequest,
    readonly actor: Actor,
  ) {}
}

export interface WalletExport {
  id: string;
  encryptedWalletCredentials: string;
}

/** PATCH /internal-accounts/{id}: `privateEnabled` of an EMBEDDED_WALLET, as a signed retry on the account. */
@CommandHandler(SetPrivateEnabledCommand)
export class SetPrivateEnabledHandler implements ICommandHandler<SetPrivateEnabledCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly signedRetry: SignedRetryService,
  ) {}

  async execute({
    accountId,
    privateEnabled,
    signed,
    actor,
  }: SetPrivateEnabledCommand): Promise<SignedResult<undefined>> {
    await this.wallets.assertOwned(accountId, actor);
    const step = await this.signedRetry.step(accountId, { intent: 'EXTERNAL', targetId: accountId }, signed, actor);
    if (step.kind === 'challenge') return step;
    await this.wallets.decide(accountId, { type: 'SetPrivateEnabled', privateEnabled, signedRetry: step.proof }, actor);
    return { kind: 'done', result: undefined };
  }
}

/**
 * POST /internal-accounts/{id}/export: the wallet seed, decrypted only in memory and sealed
 * (HPKE, the same bundle format as session keys) to the client's key. The bundle is built
 * before the signed retry is consumed, so a consumed retry always has its answer.
 */
@CommandHandler(ExportWalletCommand)
export class ExportWalletHandler implements ICommandHandler<ExportWalletCommand> {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly signedRetry: SignedRetryService,
    private readonly vault: WalletSeedVault,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async execute({
    accountId,
    clientPublicKey,
    signed,
    actor,
  }: ExportWalletCommand): Promise<SignedResult<WalletExport>> {
    const wallet = await this.wallets.own(accountId, actor);
    const step = await this.signedRetry.step(accountId, { intent: 'EXTERNAL', targetId: accountId }, signed, actor);
    if (step.kind === 'challenge') return step;
    const signedRetry = step.proof;
    if (!wallet.encryptedSeed)
      throw conflict('WALLET_SEED_MISSING', `the wallet of ${accountId} has no seed to export`);
    const seed = this.vault.openSeed(accountId, wallet.encryptedSeed);
    let encryptedWalletCredentials: string;
    try {
      encryptedWalletCredentials = await sealToClientPublicKey(seed, clientPublicKey);
    } finally {
      seed.fill(0);
    }
    const exportId = publicId('Export', effectId(actor, this.ids));
    await this.wallets.decide(accountId, { type: 'ExportWallet', exportId, signedRetry }, actor, 'append');
    return { kind: 'done', result: { id: exportId, encryptedWalletCredentials } };
  }
}
