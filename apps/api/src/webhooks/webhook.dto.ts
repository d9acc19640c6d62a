import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { SortedPageParams } from '../http/list-params.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'DEAD'] as const;

export class UpdateConfigDto {
  /** https URL (http for loopback hosts and sandbox platforms); null turns webhooks off. */
  @ValidateIf((_, value) => value !== null)
  @IsString({ message: 'webhookEndpoint must be a URL or null' })
  @MaxLength(2048)
  @JSONSchema({ type: ['string', 'null'] })
  webhookEndpoint!: string | null;
}

export class ListDeliveriesQuery extends SortedPageParams {
  @IsOptional() @IsIn(DELIVERY_STATUSES) status?: (typeof DELIVERY_STATUSES)[number];
  @IsOptional() @IsString() @MaxLength(100) type?: string;
}
