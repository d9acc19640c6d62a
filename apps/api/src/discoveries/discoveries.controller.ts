import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DiscoveryQueries } from '#application/discoveries/discovery-queries.js';
import { OptionalText } from '../http/fields.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { DISCOVERIES_TEXT } from '../docs/descriptions/discoveries.js';

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
    description: DISCOVERIES_TEXT.list,
    responses: ok('The matching institutions', 'DiscoveryList'),
  })
  list(@Query() query: ListDiscoveriesQuery) {
    return this.queries.list(query);
  }
}
