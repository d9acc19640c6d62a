import { IsIn, IsOptional } from 'class-validator';
import { OptionalText } from '../http/fields.js';
import { SortedPageParams } from '../http/list-params.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'] as const;

export class ListDeliveriesQuery extends SortedPageParams {
  @IsOptional() @IsIn(DELIVERY_STATUSES) status?: (typeof DELIVERY_STATUSES)[number];
  @OptionalText(100) type?: string;
}
