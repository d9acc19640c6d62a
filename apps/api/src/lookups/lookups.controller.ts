import { Controller, Get, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  LookupExternalAccountReceiverCommand,
  LookupUmaReceiverCommand,
  toLookupResource,
} from '#application/lookups/lookup-commands.js';
import type { Actor } from '#application/tokens.js';
import type { LookupRecord } from '#domain/lookups/lookup.js';
import { ApiDoc } from '../docs/api-doc.js';
import { CurrentActor } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { idParam } from '../http/id-pipe.js';

/** Receiver lookups: stored, valid for 15 minutes, required before quoting to a UMA address. */
@Controller('receiver')
export class LookupsController {
  constructor(private readonly commands: CommandBus) {}

  @Get('uma/:receiverUmaAddress')
  @ApiDoc({
    summary: 'Look up a UMA receiver',
    description:
      'Returns a Lookup:<uuid> with the receiver’s supported currencies and requiredPayerDataFields ' +
      '(USD: FULL_NAME; EUR: FULL_NAME, BIRTH_DATE; others: FULL_NAME, BIRTH_DATE, NATIONALITY). ' +
      'Sandbox receivers: $success.<USD|EUR|MXN>@<any domain> (settles at once), ' +
      '$pending.long.<currency>@<domain> (settles after an hour), ' +
      '$fail.compliance.<currency>@<domain> (the pay request fails). Unknown addresses answer 404.',
    tag: 'Lookups',
    responses: { 200: { description: 'The lookup', schema: 'Lookup' } },
    errors: [404],
  })
  async uma(@Param('receiverUmaAddress') address: string, @CurrentActor() actor: Actor) {
    if (address.length > 255)
      throw invalidInput([
        {
          field: 'receiverUmaAddress',
          constraint: 'maxLength',
          message: 'receiverUmaAddress must be at most 255 characters',
        },
      ]);
    const lookup: LookupRecord = await this.commands.execute(new LookupUmaReceiverCommand(address, actor));
    return toLookupResource(lookup);
  }

  @Get('external-account/:accountId')
  @ApiDoc({
    summary: 'Look up an external account as a receiver',
    tag: 'Lookups',
    responses: { 200: { description: 'The lookup', schema: 'Lookup' } },
    errors: [404],
  })
  async externalAccount(
    @Param('accountId', idParam('ExternalAccount', 'accountId')) accountId: string,
    @CurrentActor() actor: Actor,
  ) {
    const lookup: LookupRecord = await this.commands.execute(
      new LookupExternalAccountReceiverCommand(accountId, actor),
    );
    return toLookupResource(lookup);
  }
}
