import { Body, Controller, Delete, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { Actor } from '#application/tokens.js';
import {
  AddCredentialCommand,
  IssueCredentialChallengeCommand,
  RevokeCredentialCommand,
} from '#application/wallet/credential-commands.js';
import { VerifyCredentialCommand } from '#application/wallet/session-commands.js';
import { WalletQueries } from '#application/wallet/wallet-queries.js';
import { ApiDoc, noContent, ok, ApiSignedResource } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { GetDoc, PostCreate } from '../http/routes.js';
import { IdParam } from '../http/id-pipe.js';
import type { HttpRequest } from '../http/platform.js';
import { Signed, signedRetryHeaders, type SignedCall } from '../http/retries.js';
import { AddCredentialDto, CredentialChallengeDto, ListWalletQuery, VerifyCredentialDto } from './wallet.dto.js';
import { AUTH_CREDENTIALS_TEXT } from '../docs/descriptions/wallet.js';

/** Authentication credentials of embedded wallets (EMAIL_OTP, OAUTH, PASSKEY). */
@ApiTags('Wallet')
@Controller('auth/credentials')
export class AuthCredentialsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WalletQueries,
  ) {}

  @PostCreate('Add a credential to an embedded wallet', 'The credential', 'AuthMethod', {
    description: AUTH_CREDENTIALS_TEXT.add,
    errors: [404, 429],
    signedRetry: true,
  })
  async add(@Body() body: AddCredentialDto, @Signed() signed: SignedCall) {
    return signed.execute(this.commands, new AddCredentialCommand(body, signed.request, signed.actor), 201);
  }

  @GetDoc('', 'List the credentials of an embedded wallet', ok('The credentials', 'AuthMethodList'), {
    description: AUTH_CREDENTIALS_TEXT.list,
  })
  list(@Query() query: ListWalletQuery, @CurrentActor() actor: Actor) {
    return this.queries.listCredentials(actor.platformId, query.accountId);
  }

  @Post(':id/challenge')
  @HttpCode(200)
  @ApiDoc({
    summary: '(Re)issue an authentication challenge',
    description: AUTH_CREDENTIALS_TEXT.challenge,
    responses: {
      200: { description: AUTH_CREDENTIALS_TEXT.challengeResponse200, schema: 'AuthChallengeResult' },
    },
    errors: [404, 422, 429],
  })
  challenge(
    @IdParam('AuthMethod', 'id') id: string,
    @Body() body: CredentialChallengeDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new IssueCredentialChallengeCommand(id, body.clientPublicKey, actor));
  }

  @Post(':id/verify')
  @HttpCode(200)
  @ApiDoc({
    summary: 'Verify a credential and issue a session',
    description: AUTH_CREDENTIALS_TEXT.verify,
    responses: { 200: { description: AUTH_CREDENTIALS_TEXT.verifyResponse200, schema: 'AuthSessionWithKey' } },
    // 429 once an EMAIL_OTP credential took too many wrong codes (until the oldest leaves the window).
    errors: [404, 429],
  })
  verify(
    @IdParam('AuthMethod', 'id') id: string,
    @Body() body: VerifyCredentialDto,
    @Req() req: HttpRequest,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new VerifyCredentialCommand(id, body, signedRetryHeaders(req).requestId, actor));
  }

  @Delete(':id')
  @ApiSignedResource('Revoke a credential', noContent('Revoked'), { description: AUTH_CREDENTIALS_TEXT.revoke })
  async revoke(@IdParam('AuthMethod', 'id') id: string, @Signed() signed: SignedCall) {
    return signed.execute(this.commands, new RevokeCredentialCommand(id, signed.request, signed.actor), 204);
  }
}
