import { Body, Controller, Delete, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { Actor } from '#application/tokens.js';
import { RefreshSessionCommand, RevokeSessionCommand } from '#application/wallet/session-commands.js';
import { WalletQueries } from '#application/wallet/wallet-queries.js';
import { noContent, ok, ApiSignedResource } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { GetDoc } from '../http/routes.js';
import { IdParam } from '../http/id-pipe.js';
import { Signed, type SignedCall } from '../http/retries.js';
import { ClientPublicKeyDto, ListWalletQuery } from './wallet.dto.js';
import { AUTH_SESSIONS_TEXT } from '../docs/descriptions/wallet.js';

/** Sessions of embedded wallets: listed without key material, revoked and refreshed by signed retry. */
@ApiTags('Wallet')
@Controller('auth/sessions')
export class AuthSessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WalletQueries,
  ) {}

  @GetDoc('', 'List the active sessions of an embedded wallet', ok('The sessions', 'AuthSessionList'), {
    description: AUTH_SESSIONS_TEXT.list,
  })
  list(@Query() query: ListWalletQuery, @CurrentActor() actor: Actor) {
    return this.queries.listSessions(actor.platformId, query.accountId);
  }

  @Delete(':id')
  @ApiSignedResource('Revoke a session', noContent('Revoked'), {
    description: AUTH_SESSIONS_TEXT.revoke,
    errors: [409],
  })
  async revoke(@IdParam('Session', 'id') id: string, @Signed() signed: SignedCall) {
    return signed.execute(this.commands, new RevokeSessionCommand(id, signed.request, signed.actor), 204);
  }

  @Post(':id/refresh')
  @ApiSignedResource(
    'Refresh an active session',
    ok('The session with its new encrypted signing key', 'AuthSessionWithKey'),
    { description: AUTH_SESSIONS_TEXT.refresh },
  )
  async refresh(@IdParam('Session', 'id') id: string, @Body() body: ClientPublicKeyDto, @Signed() signed: SignedCall) {
    return signed.execute(
      this.commands,
      new RefreshSessionCommand(id, body.clientPublicKey, signed.request, signed.actor),
      200,
    );
  }
}
