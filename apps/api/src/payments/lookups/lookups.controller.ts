import { Controller, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsOptional, Matches, MaxLength } from 'class-validator';
import {
  LookupExternalAccountReceiverCommand,
  LookupUmaReceiverCommand,
  toLookupResource,
} from '#application/payments/lookups/lookup-commands.js';
import type { Actor } from '#application/tokens.js';
import type { LookupRecord } from '#domain/payments/lookups/lookup.js';
import { ok } from '../../docs/api-doc.js';
import { GetOne } from '../../http/routes.js';
import { CurrentActor } from '../../http/auth.js';
import { invalidInput } from '../../http/errors.js';
import { CUSTOMER_ID, UMA_ADDRESS } from '../../http/formats.js';
import { IdParam } from '../../http/id-pipe.js';
import { LOOKUPS_TEXT, SENDER } from '../../docs/descriptions/lookups.js';

/** The sender, as the public API names it; either, both or neither. */
export class ReceiverLookupQuery {
  /** The sender's UMA address; when it is a customer of the platform, that customer is the sender. */
  @IsOptional()
  @MaxLength(255)
  @Matches(UMA_ADDRESS, { message: 'senderUmaAddress must look like $name@domain' })
  senderUmaAddress?: string;
  /** The sending customer (its first currency prices estimatedExchangeRate; USD otherwise). */
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
}

/** Receiver lookups: stored, valid for 15 minutes, required before quoting to a UMA address. */
@ApiTags('Lookups')
@Controller('receiver')
export class LookupsController {
  constructor(private readonly commands: CommandBus) {}

  @GetOne('uma/:receiverUmaAddress', 'Look up a UMA receiver', ok('The lookup', 'Lookup'), {
    description: LOOKUPS_TEXT.uma,
  })
  async uma(
    @Param('receiverUmaAddress') address: string,
    @Query() query: ReceiverLookupQuery,
    @CurrentActor() actor: Actor,
  ) {
    if (address.length > 255)
      throw invalidInput([
        {
          field: 'receiverUmaAddress',
          constraint: 'maxLength',
          message: 'receiverUmaAddress must be at most 255 characters',
        },
      ]);
    const lookup: LookupRecord = await this.commands.execute(new LookupUmaReceiverCommand(address, actor, query));
    return toLookupResource(lookup);
  }

  @GetOne('external-account/:accountId', 'Look up an external account as a receiver', ok('The lookup', 'Lookup'), {
    description: SENDER,
  })
  async externalAccount(
    @IdParam('ExternalAccount', 'accountId') accountId: string,
    @Query() query: ReceiverLookupQuery,
    @CurrentActor() actor: Actor,
  ) {
    const lookup: LookupRecord = await this.commands.execute(
      new LookupExternalAccountReceiverCommand(accountId, actor, query),
    );
    return toLookupResource(lookup);
  }
}
