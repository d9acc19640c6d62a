import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SortedPageParams } from '../http/list-params.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'] as const;

export class ListDeliveriesQuery extends SortedPageParams {
  @IsOptional() @IsIn(DELIVERY_STATUSES) status?: (typeof DELIVERY_STATUSES)[number];
  @IsOptional() @IsString() @MaxLength(100) type?: string;
}
