import { Body, Controller, Delete, HttpCode, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsISO8601, IsOptional } from 'class-validator';
import { PERMISSIONS, type Permission } from '#domain/platforms/permissions.js';
import {
  CreateApiTokenCommand,
  RevokeApiTokenCommand,
  type IssuedToken,
} from '#application/platforms/platform-commands.js';
import { Queries } from '#application/queries/queries.js';
import { apiTokenList } from '#application/queries/list-criteria.js';
import type { Actor } from '#application/tokens.js';
import { FilledText, OptionalText } from '../http/fields.js';
import { ApiResource, noContent, ok } from '../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { PageParams } from '../http/list-params.js';
import { SecretOnce } from '../http/retries.js';
import { TOKENS_TEXT } from '../docs/descriptions/tokens.js';

export class CreateTokenDto {
  @FilledText(100) name!: string;
  /** Required by the public API; here all three when omitted. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(PERMISSIONS.length)
  @ArrayUnique()
  @IsIn(PERMISSIONS as unknown as string[], {
    each: true,
    message: `each permission must be one of ${PERMISSIONS.join(', ')}`,
  })
  permissions?: Permission[];
}

export class ListTokensQuery extends PageParams {
  @OptionalText(100) name?: string;
  @IsOptional() @IsISO8601({ strict: true }) createdAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) createdBefore?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedBefore?: string;
}

/** API token management. The client secret is returned once, on creation; only its hash is kept. */
@Controller('tokens')
export class TokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @PostCreate('Create an API token', 'The token with its secret', 'ApiTokenWithSecret', {
    description: TOKENS_TEXT.create,
  })
  @SecretOnce('clientSecret')
  async create(@Body() body: CreateTokenDto, @CurrentActor() actor: Actor) {
    const issued: IssuedToken = await this.commands.execute(new CreateApiTokenCommand(body, actor));
    return { ...(await this.queries.apiToken(actor.platformId, issued.id)), clientSecret: issued.clientSecret };
  }

  @GetPage('', 'List API tokens', 'tokens', 'ApiToken', { description: TOKENS_TEXT.list })
  list(@Query() query: ListTokensQuery, @CurrentActor() actor: Actor) {
    return this.queries.listApiTokens(actor.platformId, apiTokenList(query));
  }

  @GetOne(':tokenId', 'Get an API token', ok('The token', 'ApiToken'))
  get(@IdParam('ApiToken', 'tokenId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.apiToken(actor.platformId, id);
  }

  @Delete(':tokenId')
  @ApiResource('Revoke an API token', noContent('Revoked'), { description: TOKENS_TEXT.revoke, errors: [409] })
  @HttpCode(204)
  async revoke(@IdParam('ApiToken', 'tokenId') id: string, @CurrentActor() actor: Actor) {
    await this.queries.apiToken(actor.platformId, id);
    await this.commands.execute(new RevokeApiTokenCommand(id, actor));
  }
}
