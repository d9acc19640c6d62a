import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DiscoveryQueries } from '#application/discoveries/discovery-queries.js';
import { OptionalText } from '../http/fields.js';
import { ApiDoc, ok } from '../docs/api-doc.js';

export class ListDiscoveriesQuery {
  /** ISO 3166-1 alpha-2 country code, e.g. PH (any case). */
  @OptionalText(8) country?: string;
  /** ISO 4217 currency code, e.g. PHP (any case). */
  @OptionalText(8) currency?: string;
}

/** Receiving institutions by corridor. */
@ApiTags('Discoveries')
@Controller('discoveries')
export class DiscoveriesController {
  constructor(private readonly queries: DiscoveryQueries) {}

  @Get()
  @ApiDoc({
    summary: 'List receiving institutions',
    description:
      'The banks and payment providers that can receive in a corridor, filtered by country and/or currency ' +
      '(neither: every corridor; an unknown corridor: an empty list). Give an entry’s bankName as ' +
      '`bankName` when creating an external account. Not paginated.',
    responses: ok('The matching institutions', 'DiscoveryList'),
  })
  list(@Query() query: ListDiscoveriesQuery) {
    return this.queries.list(query);
  }
}
