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
import { IdempotentAction } from '../http/idempotency.interceptor.js';

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
    description:
      'Fields the check needs and the customer lacks are listed in `errors` (MISSING_FIELD with its `field`) and the ' +
      'verification is RESOLVE_ERRORS (the customer is unchanged): individuals need fullName, birthDate and address ' +
      '(line1, city, postalCode, country); businesses need businessInfo.legalName, businessInfo.registrationNumber ' +
      'and address. Documents and beneficial owners the check needs are listed the same way (MISSING_*_DOCUMENT with ' +
      '`acceptedDocumentTypes`, MISSING_BENEFICIAL_OWNER): every production customer needs them, a sandbox customer ' +
      'as said below. Otherwise the outcome becomes the customer’s kycStatus (kybStatus for businesses): IN_PROGRESS ' +
      'while undecided (kycStatus PENDING), APPROVED (its PENDING internal accounts become ACTIVE) or REJECTED. A ' +
      'business is approved only when its beneficial owners are too: it takes the worst of its own check and their ' +
      'KYC, and each REJECTED owner is an APPLICANT_REJECTED error with its `resourceId`. Sandbox: the last three ' +
      'characters of the registration number (businesses) or last name (individuals) select 001 IN_PROGRESS, 002 ' +
      'REJECTED, 003 documents and owners required, otherwise APPROVED.',
    responses: ok('The verification', 'Verification'),
    errors: [404],
  })
  async create(@Body() body: CreateVerificationDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateVerificationCommand(body.customerId, actor));
    return this.queries.get(actor.platformId, id);
  }

  @GetPage('', 'List verifications', 'verifications', 'Verification', { description: 'Newest first.' })
  list(@Query() query: ListVerificationsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':verificationId', 'Get a verification', ok('The verification', 'Verification'))
  get(@IdParam('Verification', 'verificationId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, id);
  }
}
