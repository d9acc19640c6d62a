import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsPositive, Matches, Max, ValidateNested } from 'class-validator';
import { ENTRY_MODES, type EntryMode } from '#domain/cards/card-types.js';
import { MAX_DECISION_DEADLINE_MS, type StandInDecision } from '#domain/cards/card-processor.js';
import { CURRENCY_CODES } from '#domain/primitives.js';
import { FilledText, IntRange } from '../http/fields.js';
import { RequiredIf } from '../http/validation.js';
import { MerchantDto } from './card.dto.js';

export const PROCESSOR_MESSAGE_TYPES = [
  'AUTHORIZATION',
  'ADVICE',
  'INCREMENTAL_AUTHORIZATION',
  'CLEARING',
  'REFUND',
  'REVERSAL',
] as const;
export type ProcessorMessageTypeName = (typeof PROCESSOR_MESSAGE_TYPES)[number];

const authorizing = (o: CardProcessorMessageDto) => o.type === 'AUTHORIZATION' || o.type === 'ADVICE';
const followUp = (o: CardProcessorMessageDto) => !authorizing(o);
const amounted = (o: CardProcessorMessageDto) => authorizing(o) || o.type === 'INCREMENTAL_AUTHORIZATION';
/** The network's transaction ids: what processors send (Marqeta tokens, Lithic UUIDs, Stripe ids). */
const NETWORK_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const networkId = (field: string) =>
  Matches(NETWORK_ID, { message: `${field} must be 1 to 100 letters, digits, '.', '_', ':' or '-'` });

/**
 * A card processor's message about one of the platform's cards, told apart by `type`: AUTHORIZATION (decide it),
 * ADVICE (the network decided in stand-in: record it as taken), INCREMENTAL_AUTHORIZATION (raise an approved one),
 * CLEARING, REFUND and REVERSAL of an authorization named by `originalNetworkTransactionId`.
 */
export class CardProcessorMessageDto {
  @IsIn(PROCESSOR_MESSAGE_TYPES) type!: ProcessorMessageTypeName;
  /** The network's id of this message; a replay with the same id gets the same answer and changes nothing. */
  @networkId('networkTransactionId') networkTransactionId!: string;
  /** The service's id of the card (`Card:<uuid>`); an unknown card is declined CARD_NOT_FOUND. */
  @FilledText(100) cardId!: string;
  /**
   * In the smallest unit of `currency`. Required for AUTHORIZATION, ADVICE and INCREMENTAL_AUTHORIZATION (the
   * increment); for the others, default all of it.
   */
  @RequiredIf(amounted)
  @IsInt({ message: 'amount must be an integer in the smallest unit' })
  @IsPositive({ message: 'amount must be greater than zero' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'amount must be at most 9007199254740991' })
  amount?: number;
  /** ISO 4217 code (AUTHORIZATION and ADVICE). */
  @RequiredIf(authorizing)
  @IsIn(CURRENCY_CODES, { message: `currency must be one of ${CURRENCY_CODES.join(', ')}` })
  currency?: string;
  /** The merchant: descriptor, MCC and country (AUTHORIZATION and ADVICE). */
  @RequiredIf(authorizing) @IsObject() @ValidateNested() @Type(() => MerchantDto) merchant?: MerchantDto;
  /** How the card was presented. */
  @IsOptional() @IsIn(ENTRY_MODES) entryMode?: EntryMode;
  /** ADVICE: what the network decided in stand-in. */
  @RequiredIf((o: CardProcessorMessageDto) => o.type === 'ADVICE')
  @IsIn(['APPROVED', 'DECLINED'])
  networkDecision?: 'APPROVED' | 'DECLINED';
  /**
   * INCREMENTAL_AUTHORIZATION, CLEARING, REFUND and REVERSAL: the network transaction id of the authorization they
   * are about.
   */
  @RequiredIf(followUp) @networkId('originalNetworkTransactionId') originalNetworkTransactionId?: string;
}

/** PATCH /config/card-processor: what is given changes, the rest stays. */
export class CardProcessorConfigDto {
  /** How long the service may take to answer an authorization before the stand-in decision answers. */
  @IsOptional() @IntRange(1, MAX_DECISION_DEADLINE_MS) decisionDeadlineMs?: number;
  /** What the service answers when it cannot decide within the deadline. */
  @IsOptional() @IsIn(['APPROVE', 'DECLINE']) standInDecision?: StandInDecision;
}
