import { Body, Controller, Delete, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
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
import { ApiDoc, created, noContent, ok, ApiSignedResource } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import type { HttpRequest } from '../http/platform.js';
import { Signed, signedRetryHeaders, type SignedCall } from '../http/signed-retry.js';
import { AddCredentialDto, CredentialChallengeDto, ListWalletQuery, VerifyCredentialDto } from './wallet.dto.js';
import { Idempotent } from '../http/idempotency.interceptor.js';

/** Authentication credentials of embedded wallets (EMAIL_OTP, OAUTH, PASSKEY). */
@ApiTags('Wallet')
@Controller('auth/credentials')
export class AuthCredentialsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WalletQueries,
  ) {}

  @Post()
  @Idempotent()
  @ApiDoc({
    summary: 'Add a credential to an embedded wallet',
    description:
      'Direct when the account has no credential; otherwise a signed retry stamped by a session of ' +
      'the account (step 1 answers 202 with `type`). OAUTH takes its nickname from the token’s ' +
      'email claim; EMAIL_OTP uses the customer’s email.',
    responses: created('The credential', 'AuthMethod'),
    errors: [404, 429],
    signedRetry: true,
  })
  async add(@Body() body: AddCredentialDto, @Signed() signed: SignedCall, @CurrentActor() actor: Actor) {
    return signed.execute(this.commands, new AddCredentialCommand(body, signed.request, actor), 201);
  }

  @Get()
  @ApiDoc({
    summary: 'List the credentials of an embedded wallet',
    description: 'Not paginated; empty when the account has none or is not visible to the caller.',
    responses: ok('The credentials', 'AuthMethodList'),
  })
  list(@Query() query: ListWalletQuery, @CurrentActor() actor: Actor) {
    return this.queries.listCredentials(actor.platformId, query.accountId);
  }

  @Post(':id/challenge')
  @HttpCode(200)
  @ApiDoc({
    summary: '(Re)issue an authentication challenge',
    description:
      'EMAIL_OTP: a new OTP is sent (sandbox: the code is always 000000 and no email is sent); ' +
      'answers the credential. PASSKEY: a WebAuthn challenge bound to `clientPublicKey`. ' +
      'Re-issues are rate limited (429 with Retry-After).',
    responses: {
      200: {
        description: 'The credential (EMAIL_OTP) or a PasskeyAuthChallenge (PASSKEY)',
        schema: 'AuthChallengeResult',
      },
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
    description:
      'EMAIL_OTP: `otp` and `clientPublicKey`. OAUTH: a fresh `oidcToken` whose nonce is ' +
      'sha256(clientPublicKey), and `clientPublicKey`. PASSKEY: `assertion` and the `Request-Id` ' +
      'header of the challenge. The session signing key is returned once, sealed to the client key.',
    responses: { 200: { description: 'The session with its encrypted signing key', schema: 'AuthSessionWithKey' } },
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
  @ApiSignedResource('Revoke a credential', noContent('Revoked'), {
    description:
      'Signed retry stamped by a session of a different credential of the same account; the ' +
      'credential’s sessions end with it. The last credential of an account cannot be revoked (400).',
  })
  async revoke(@IdParam('AuthMethod', 'id') id: string, @Signed() signed: SignedCall, @CurrentActor() actor: Actor) {
    return signed.execute(this.commands, new RevokeCredentialCommand(id, signed.request, actor), 204);
  }
}
