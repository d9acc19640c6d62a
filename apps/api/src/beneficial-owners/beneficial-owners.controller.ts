import { Body, Controller, Patch, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateBeneficialOwnerCommand,
  UpdateBeneficialOwnerCommand,
} from '#application/beneficial-owners/beneficial-owner-commands.js';
import { BeneficialOwnerQueries } from '#application/beneficial-owners/beneficial-owner-queries.js';
import type { Actor } from '#application/tokens.js';
import type { BeneficialOwnerChanges } from '#domain/beneficial-owners/beneficial-owner.js';
import { ApiResource, ok } from '../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import {
  CreateBeneficialOwnerDto,
  ListBeneficialOwnersQuery,
  UpdateBeneficialOwnerDto,
} from './beneficial-owner.dto.js';
import { BENEFICIAL_OWNERS_TEXT } from '../docs/descriptions/beneficial-owners.js';

/** A validated body as plain JSON: what is recorded in the owner's events. */
const plain = <T>(body: object): T => JSON.parse(JSON.stringify(body)) as T;

const OwnerId = () => IdParam('BeneficialOwner', 'beneficialOwnerId');

/** People who own or control a business customer, each with a KYC of their own. */
@Controller('beneficial-owners')
export class BeneficialOwnersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: BeneficialOwnerQueries,
  ) {}

  @PostCreate('Create a beneficial owner', 'The beneficial owner', 'BeneficialOwner', {
    description: BENEFICIAL_OWNERS_TEXT.create,
    errors: [404],
  })
  async create(@Body() body: CreateBeneficialOwnerDto, @CurrentActor() actor: Actor) {
    const input = plain<CreateBeneficialOwnerCommand['input']>(body);
    const id: string = await this.commands.execute(new CreateBeneficialOwnerCommand(input, actor));
    return this.queries.get(actor.platformId, id);
  }

  @GetPage('', 'List the beneficial owners of a business customer', 'beneficial owners', 'BeneficialOwner', {
    description: BENEFICIAL_OWNERS_TEXT.list,
    errors: [404],
  })
  list(@Query() query: ListBeneficialOwnersQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':beneficialOwnerId', 'Get a beneficial owner', ok('The beneficial owner', 'BeneficialOwner'))
  get(@OwnerId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, id);
  }

  @Patch(':beneficialOwnerId')
  @ApiResource('Update a beneficial owner', ok('The updated beneficial owner', 'BeneficialOwner'), {
    description: BENEFICIAL_OWNERS_TEXT.update,
  })
  async update(@OwnerId() id: string, @Body() body: UpdateBeneficialOwnerDto, @CurrentActor() actor: Actor) {
    await this.commands.execute(new UpdateBeneficialOwnerCommand(id, plain<BeneficialOwnerChanges>(body), actor));
    return this.queries.get(actor.platformId, id);
  }
}
