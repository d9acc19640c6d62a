import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AGENT_PERMISSIONS, EXECUTION_MODES } from '#domain/agents/agent-types.js';
import { publicIdPattern } from '#domain/primitives.js';
import { IsCurrencyCode } from '../http/currency-code.js';
import { FilledText, IntRange, OptionalText } from '../http/fields.js';
import { CUSTOMER_ID } from '../http/formats.js';
import { PageParams, SortedPageParams, ToBoolean } from '../http/list-params.js';
import { Nullable } from '../http/validation.js';

const INTERNAL_ACCOUNT = publicIdPattern('InternalAccount');
const AGENT_ID = publicIdPattern('Agent');
const MAX = Number.MAX_SAFE_INTEGER;
const amountMessage = (field: string) => ({
  message: `${field} must be an integer in the smallest unit, 0 to 9007199254740991`,
});

/** Spending limits, in the smallest unit of `currency`. */
export class SpendingLimitsDto {
  @IsCurrencyCode('currency') currency!: string;
  @IsInt(amountMessage('perTransactionLimit')) @Min(0) @Max(MAX) perTransactionLimit!: number;
  /** null: no daily amount limit. */
  @Nullable('integer') @IsInt(amountMessage('dailyLimit')) @Min(0) @Max(MAX) dailyLimit?: number | null;
  /** Transactions per day. */
  @ValidateIf((o: SpendingLimitsDto) => o.dailyTransactionLimit !== undefined)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  dailyTransactionLimit?: number;
  /** null: no monthly amount limit. */
  @Nullable('integer') @IsInt(amountMessage('monthlyLimit')) @Min(0) @Max(MAX) monthlyLimit?: number | null;
}

/** Every field optional; null removes the daily or monthly limit; a new currency recasts the limits not given. */
export class SpendingLimitsUpdateDto {
  @ValidateIf((o: SpendingLimitsUpdateDto) => o.currency !== undefined)
  @IsCurrencyCode('currency')
  currency?: string;
  @ValidateIf((o: SpendingLimitsUpdateDto) => o.perTransactionLimit !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX)
  perTransactionLimit?: number;
  @Nullable('integer') @IntRange(0, MAX) dailyLimit?: number | null;
  @ValidateIf((o: SpendingLimitsUpdateDto) => o.dailyTransactionLimit !== undefined)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  dailyTransactionLimit?: number;
  @Nullable('integer') @IntRange(0, MAX) monthlyLimit?: number | null;
}

/** Takes precedence over the policy's execution mode and per-transaction limit for one account. */
export class AccountRuleDto {
  @Matches(INTERNAL_ACCOUNT, { message: 'accountId must have the form InternalAccount:<uuid>' }) accountId!: string;
  @IsOptional() @IsIn(EXECUTION_MODES) executionMode?: (typeof EXECUTION_MODES)[number];
  /** null: inherit the policy's. */
  @Nullable('integer') @IntRange(0, MAX) perTransactionLimit?: number | null;
}

export class AccountRestrictionsDto {
  /** null: every internal account of the customer. */
  @Nullable('array')
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(INTERNAL_ACCOUNT, { each: true, message: 'allowedAccountIds must be InternalAccount:<uuid> ids' })
  allowedAccountIds?: string[] | null;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AccountRuleDto)
  accountRules?: AccountRuleDto[];
}

/** A transaction above `amount` needs approval even in AUTO; `currency` is required with an amount. */
export class ApprovalThresholdsDto {
  @ValidateIf((o: ApprovalThresholdsDto) => o.amount != null || o.currency !== undefined)
  @IsCurrencyCode('currency')
  currency?: string;
  @Nullable('integer') @IntRange(0, MAX) amount?: number | null;
}

/** The parts of a policy that a create and an update both give whole (null: none). */
export class AgentPolicyRulesDto {
  @Nullable('object')
  @IsObject()
  @ValidateNested()
  @Type(() => AccountRestrictionsDto)
  accountRestrictions?: AccountRestrictionsDto | null;
  @Nullable('object')
  @IsObject()
  @ValidateNested()
  @Type(() => ApprovalThresholdsDto)
  approvalThresholds?: ApprovalThresholdsDto | null;
}

export class AgentPolicyDto extends AgentPolicyRulesDto {
  @IsArray() @ArrayUnique() @IsIn(AGENT_PERMISSIONS, { each: true }) permissions!: (typeof AGENT_PERMISSIONS)[number][];
  @IsIn(EXECUTION_MODES) defaultExecutionMode!: (typeof EXECUTION_MODES)[number];
  @IsDefined() @IsObject() @ValidateNested() @Type(() => SpendingLimitsDto) spendingLimits!: SpendingLimitsDto;
}

/**
 * Omitted fields are kept; `permissions`, `accountRestrictions` and `approvalThresholds` replace; `spendingLimits`
 * merges.
 */
export class AgentPolicyUpdateDto extends AgentPolicyRulesDto {
  @ValidateIf((o: AgentPolicyUpdateDto) => o.permissions !== undefined)
  @IsArray()
  @ArrayUnique()
  @IsIn(AGENT_PERMISSIONS, { each: true })
  permissions?: (typeof AGENT_PERMISSIONS)[number][];
  @ValidateIf((o: AgentPolicyUpdateDto) => o.defaultExecutionMode !== undefined)
  @IsIn(EXECUTION_MODES)
  defaultExecutionMode?: (typeof EXECUTION_MODES)[number];
  @ValidateIf((o: AgentPolicyUpdateDto) => o.spendingLimits !== undefined)
  @IsObject()
  @ValidateNested()
  @Type(() => SpendingLimitsUpdateDto)
  spendingLimits?: SpendingLimitsUpdateDto;
}

/** A draft policy tried on the agent's past actions: the draft as a policy update, and the period (from < to). */
export class AgentPolicyBacktestDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AgentPolicyUpdateDto) policy!: AgentPolicyUpdateDto;
  /** Start of the period (inclusive): actions requested at or after it are decided again. */
  @IsISO8601({ strict: true }) from!: string;
  /** End of the period (exclusive), after `from` and at most 366 days later. */
  @IsISO8601({ strict: true }) to!: string;
}

export class CreateAgentDto {
  @FilledText(200) name!: string;
  @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId!: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AgentPolicyDto) policy!: AgentPolicyDto;
}

export class UpdateAgentDto {
  @ValidateIf((o: UpdateAgentDto) => o.name !== undefined) @FilledText(200) name?: string;
  @ValidateIf((o: UpdateAgentDto) => o.isPaused !== undefined) @IsBoolean() isPaused?: boolean;
}

export class RejectAgentActionDto {
  @OptionalText(1000) reason?: string;
}

export class ListAgentsQuery extends PageParams {
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  @IsOptional() @ToBoolean() @IsBoolean() isPaused?: boolean;
  @IsOptional() @ToBoolean() @IsBoolean() isConnected?: boolean;
  /** createdAt at or after (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) createdAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) createdBefore?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedAfter?: string;
  @IsOptional() @IsISO8601({ strict: true }) updatedBefore?: string;
}

export class ListApprovalsQuery extends SortedPageParams {
  @IsOptional() @Matches(AGENT_ID, { message: 'agentId must have the form Agent:<uuid>' }) agentId?: string;
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
  /** createdAt at or after (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) startDate?: string;
  /** createdAt at or before (inclusive). */
  @IsOptional() @IsISO8601({ strict: true }) endDate?: string;
}
