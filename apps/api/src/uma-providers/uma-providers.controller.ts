import { Controller, Query } from '@nestjs/common';
import { IsBoolean, IsOptional, Matches } from 'class-validator';
import { UmaProviderQueries } from '#application/uma-providers/uma-provider-queries.js';
import { GetPage } from '../http/routes.js';
import { SortedPageParams, ToBoolean } from '../http/list-params.js';
import { UMA_PROVIDERS_TEXT } from '../docs/descriptions/uma-providers.js';

export class ListUmaProvidersQuery extends SortedPageParams {
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'countryCode must be an ISO 3166-1 alpha-2 code' })
  countryCode?: string;
  // Codes outside the service's own currency list are valid filters: they simply match nothing.
  @IsOptional()
  @Matches(/^[A-Z]{3,4}$/, { message: 'currencyCode must be a currency code such as USD' })
  currencyCode?: string;
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: 'hasBlockedProviders must be true or false' })
  hasBlockedProviders?: boolean;
}

/** UMA providers reachable from the service. */
@Controller('uma-providers')
export class UmaProvidersController {
  constructor(private readonly queries: UmaProviderQueries) {}

  @GetPage('', 'List UMA providers', 'providers', 'UmaProvider', { description: UMA_PROVIDERS_TEXT.list })
  list(@Query() query: ListUmaProvidersQuery) {
    return this.queries.list(query);
  }
}
