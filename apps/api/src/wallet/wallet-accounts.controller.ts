import { Body, Controller, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { Queries } from '#application/queries/queries.js';
import { ExportWalletCommand, SetPrivateEnabledCommand } from '#application/wallet/account-commands.js';
import { ok, ApiSignedResource } from '../docs/api-doc.js';
import { IdParam } from '../http/id-pipe.js';
import { Signed, type SignedCall } from '../http/retries.js';
import { ClientPublicKeyDto, UpdateWalletAccountDto } from './wallet.dto.js';
import { WALLET_ACCOUNTS_TEXT } from '../docs/descriptions/wallet.js';

const AccountId = () => IdParam('InternalAccount', 'id');

/** Operations on an EMBEDDED_WALLET account that need a session signature. */
@ApiTags('InternalAccounts')
@Controller('internal-accounts')
export class WalletAccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @Patch(':id')
  @ApiSignedResource('Update embedded wallet privacy', ok('The account', 'InternalAccount'), {
    description: WALLET_ACCOUNTS_TEXT.update,
  })
  async update(@AccountId() id: string, @Body() body: UpdateWalletAccountDto, @Signed() signed: SignedCall) {
    const command = new SetPrivateEnabledCommand(id, body.privateEnabled, signed.request, signed.actor);
    return signed.executeThen(this.commands, command, () => this.queries.internalAccount(signed.actor.platformId, id));
  }

  @Post(':id/export')
  @ApiSignedResource('Export an embedded wallet', ok('The export', 'WalletExport'), {
    description: WALLET_ACCOUNTS_TEXT.export,
    errors: [409],
  })
  async export(@AccountId() id: string, @Body() body: ClientPublicKeyDto, @Signed() signed: SignedCall) {
    return signed.execute(
      this.commands,
      new ExportWalletCommand(id, body.clientPublicKey, signed.request, signed.actor),
      200,
    );
  }
}
