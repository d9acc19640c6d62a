import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { VERIFICATION_STATUSES } from '#domain/verifications/verification.js';
import type { Actor } from '#application/tokens.js';
import { CreateVerificationCommand } from '#application/verifications/verification-commands.js';
import { VerificationQueries } from '#application/verifications/verification-queries.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { PageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../http/formats.js';
import { IdempotentAction } from '../http/retries.js';
import { VERIFICATIONS_TEXT } from '../docs/descriptions/verifications.js';

const customerIdMessage = { message: 'customerId must have the form Customer:<uuid>' };

export class CreateVerificationDto {
  @Matches(CUSTOMER_ID, customerIdMessage) customerId!: string;
}

export class ListVerificationsQuery extends PageParams {
  @IsOptional() @Matches(CUSTOMER_ID, customerIdMessage) customerId?: string;
  @IsOptional()
  @IsIn(VERIFICATION_STATUSES, { message: `verificationStatus must be one of ${VERIFICATION_STATUSES.join(', ')}` })
  verificationStatus?: string;
}

/** KYC (individuals) and KYB (businesses) checks of customers. */
@Controller('verifications')
export class VerificationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: VerificationQueries,
  ) {}

  @IdempotentAction()
  @ApiDoc({
    summary: 'Verify a customer (KYC/KYB)',
    description: VERIFICATIONS_TEXT.create,
    responses: ok('The verification', 'Verification'),
    errors: [404],
  })
  async create(@Body() body: CreateVerificationDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateVerificationCommand(body.customerId, actor));
    return this.queries.get(actor.platformId, id);
  }

  @GetPage('', 'List verifications', 'verifications', 'Verification', { description: VERIFICATIONS_TEXT.list })
  list(@Query() query: ListVerificationsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':verificationId', 'Get a verification', ok('The verification', 'Verification'))
  get(@IdParam('Verification', 'verificationId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, id);
  }
}
