import { Body, Controller, Injectable, Param, Query, type PipeTransform } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  CancelInvitationCommand,
  ClaimInvitationCommand,
  CreateInvitationCommand,
} from '#application/invitations/invitation-commands.js';
import { InvitationQueries } from '#application/invitations/invitation-queries.js';
import type { Actor } from '#application/tokens.js';
import { INVITATION_CODE } from '#domain/invitations/invitation.js';
import { OptionalFilledText, OptionalText } from '../http/fields.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { PageParams } from '../http/list-params.js';
import { UMA_ADDRESS } from '../http/formats.js';
import { IdempotentAction } from '../http/retries.js';
import { INVITATIONS_TEXT } from '../docs/descriptions/invitations.js';

const STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const;

export class CreateInvitationDto {
  @Matches(UMA_ADDRESS, { message: 'inviterUma must look like $name@domain.tld' }) @MaxLength(200) inviterUma!: string;
  @OptionalFilledText(100) firstName?: string;
  /** Smallest unit of the inviter's (first) currency. */
  @IsOptional()
  @IsInt({ message: 'amountToSend must be an integer in the smallest unit' })
  @Min(1, { message: 'amountToSend must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amountToSend must be at most 9007199254740991' })
  amountToSend?: number;
  @IsOptional() @IsISO8601({ strict: true }, { message: 'expiresAt must be an ISO 8601 date-time' }) expiresAt?: string;
}

export class ClaimInvitationDto {
  @Matches(UMA_ADDRESS, { message: 'inviteeUma must look like $name@domain.tld' }) @MaxLength(200) inviteeUma!: string;
}

export class ListInvitationsQuery extends PageParams {
  @IsOptional() @IsIn(STATUSES) status?: (typeof STATUSES)[number];
  @OptionalText(200) inviterUma?: string;
}

/** Codes are Crockford base32, read case-insensitively. */
@Injectable()
export class InvitationCodePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const code = value.toUpperCase();
    if (!INVITATION_CODE.test(code))
      throw invalidInput([
        {
          field: 'invitationCode',
          constraint: 'isInvitationCode',
          message: 'invitationCode must be 10 base32 characters',
        },
      ]);
    return code;
  }
}

/** Invite-by-link: the inviter's platform creates and cancels; the invitee's platform (any) reads and claims. */
@Controller('invitations')
export class InvitationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: InvitationQueries,
  ) {}

  @PostCreate('Create an invitation', 'The invitation', 'Invitation', { description: INVITATIONS_TEXT.create })
  async create(@Body() body: CreateInvitationDto, @CurrentActor() actor: Actor) {
    const code: string = await this.commands.execute(new CreateInvitationCommand(body, actor));
    return this.queries.get(code);
  }

  @GetPage('', 'List the platform’s invitations', 'invitations', 'Invitation', { description: INVITATIONS_TEXT.list })
  list(@Query() query: ListInvitationsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':invitationCode', 'Get an invitation', ok('The invitation', 'Invitation'), {
    description: INVITATIONS_TEXT.get,
  })
  get(@Param('invitationCode', InvitationCodePipe) code: string) {
    return this.queries.get(code);
  }

  @IdempotentAction(':invitationCode/cancel')
  @ApiResource('Cancel an invitation', ok('The cancelled invitation', 'Invitation'), {
    description: INVITATIONS_TEXT.cancel,
    errors: [409],
  })
  async cancel(@Param('invitationCode', InvitationCodePipe) code: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new CancelInvitationCommand(code, actor));
    return this.queries.get(code);
  }

  @IdempotentAction(':invitationCode/claim')
  @ApiResource('Claim an invitation', ok('The claimed invitation', 'Invitation'), {
    description: INVITATIONS_TEXT.claim,
    errors: [409],
  })
  async claim(
    @Param('invitationCode', InvitationCodePipe) code: string,
    @Body() body: ClaimInvitationDto,
    @CurrentActor() actor: Actor,
  ) {
    await this.commands.execute(new ClaimInvitationCommand(code, body.inviteeUma, actor));
    return this.queries.get(code);
  }
}
