/** Types of the agent aggregate: an agent, its policy and usage, its device codes and its actions. */

export const AGENT_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];
export const EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];
export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];
export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

/** Amounts are integers in the smallest unit of `currency` (JSON numbers, at most 2^53-1). */
export interface SpendingLimits {
  currency: string;
  perTransactionLimit: number;
  /** null or absent: no daily amount limit. */
  dailyLimit?: number | null;
  dailyTransactionLimit?: number;
  monthlyLimit?: number | null;
}

export interface AccountRule {
  accountId: string;
  executionMode?: ExecutionMode;
  /** In the spending limits' currency; null or absent inherits the policy's. */
  perTransactionLimit?: number | null;
}

export interface AccountRestrictions {
  /** null or absent: every internal account of the customer. */
  allowedAccountIds?: string[] | null;
  accountRules?: AccountRule[];
}

export interface ApprovalThresholds {
  currency?: string;
  amount?: number | null;
}

export interface AgentPolicy {
  permissions: AgentPermission[];
  defaultExecutionMode: ExecutionMode;
  spendingLimits: SpendingLimits;
  accountRestrictions?: AccountRestrictions | null;
  approvalThresholds?: ApprovalThresholds | null;
}

/**
 * Partial update: omitted fields are kept; `spendingLimits` merges field by field (null removes a daily or monthly
 * limit).
 */
export interface AgentPolicyUpdate {
  permissions?: AgentPermission[];
  defaultExecutionMode?: ExecutionMode;
  spendingLimits?: Partial<SpendingLimits>;
  accountRestrictions?: AccountRestrictions | null;
  approvalThresholds?: ApprovalThresholds | null;
}

/**
 * Executed spends of the UTC day `day` (YYYY-MM-DD) and month `month` (YYYY-MM) of the platform's
 * clock, in the spending limits' currency (decimal strings).
 */
export interface UsageCounters {
  day: string;
  month: string;
  dailyTransactionCount: number;
  dailySpend: string;
  monthlySpend: string;
}

export interface AgentSnapshot {
  id: string;
  name: string;
  customerId: string;
  platformCustomerId: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: AgentPolicy;
  usage: UsageCounters;
  createdAt: string;
  updatedAt: string;
}

/** A device code as the agent's stream keeps it: its hash only (`hashDeviceCode`). */
export interface DeviceCode {
  codeHash: string;
  expiresAt: string;
  redeemed: boolean;
}

/** A device code as events from before codes were hashed carry it. */
export interface LegacyDeviceCode {
  code: string;
  expiresAt: string;
  redeemed: boolean;
}

export interface TransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/** What an action would spend: the internal account it touches and the amount leaving or entering it. */
export interface Spend {
  permission: AgentPermission;
  accountId: string;
  /** The customer's other internal account, for a payment between two of them (checked by the policy too). */
  otherAccountId?: string;
  /** Smallest unit of `currency`. */
  amount: string;
  currency: string;
}

/** A spend reserved against the limits while its money moves (in the limits' currency at reservation). */
export interface Reservation {
  amount: string;
  currency: string;
  day: string;
  month: string;
}

/** Who decided an action that needed approval, when the platform's decision endpoint was asked. */
export interface AgentActionDecision {
  decidedBy: 'PLATFORM' | 'DEFAULT';
  /** Milliseconds the endpoint was waited for, on the service's monotonic clock. */
  elapsedMs: number;
  reason?: string;
  /** Why the platform's default decided: TIMEOUT, CONNECTION_ERROR, BAD_STATUS or MALFORMED_ANSWER. */
  fallback?: string;
}

/**
 * A rule of the agent's policy that asked for approval of an action: the account's rule
 * (`accountRules.executionMode`) or the policy's default mode (`defaultExecutionMode`) is APPROVAL_REQUIRED, or the
 * amount is above the approval threshold (`approvalThresholds.amount`, with the threshold).
 */
export interface ApprovalReason {
  rule: 'accountRules.executionMode' | 'defaultExecutionMode' | 'approvalThresholds.amount';
  /** approvalThresholds.amount only: the threshold, in the smallest unit of its currency. */
  threshold?: { amount: number; currency: string };
}

export interface AgentActionSnapshot {
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  spend: Spend;
  /** The Quote resource as it was when the action was requested (EXECUTE_QUOTE only). */
  quote?: Record<string, unknown>;
  transferDetails?: TransferDetails;
  /**
   * Why the action needed approval, recorded when it was requested (absent on an action that did not, and on those
   * requested before this was kept).
   */
  approvalReasons?: ApprovalReason[];
  /** The Transaction resource once execution began. */
  transaction?: Record<string, unknown>;
  rejectionReason?: string;
  /** Set when the platform's decision endpoint (or its default) approved or rejected it; absent: a person did. */
  decision?: AgentActionDecision;
  /** Why execution failed (FAILED only). */
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** What an agent stream holds, before the agent's creation too (empty then). */
interface AgentHoldings {
  deleted: boolean;
  deviceCode?: DeviceCode;
  /** SHA-256 of the access token (hex); the token itself is never stored. */
  tokenHash?: string;
  actions: Map<string, AgentActionSnapshot>;
  reservations: Map<string, Reservation>;
}

/** An agent created (deleted or not). */
export type ExistingAgent = AgentHoldings & { platformId: string; agent: AgentSnapshot };

export type AgentState = (AgentHoldings & { platformId?: undefined; agent?: undefined }) | ExistingAgent;

type Base = { platformId: string; agentId: string };
export type AgentEvent =
  | { type: 'AgentCreated'; data: Base & { agent: AgentSnapshot } }
  | { type: 'AgentUpdated'; data: Base & { agent: AgentSnapshot } }
  | { type: 'AgentPolicyUpdated'; data: Base & { agent: AgentSnapshot } }
  | { type: 'AgentDeleted'; data: Base & { agent: AgentSnapshot; deletedAt: string } }
  | { type: 'AgentDeviceCodeIssued'; data: Base & { deviceCode: DeviceCode | LegacyDeviceCode; issuedAt: string } }
  | {
      type: 'AgentDeviceCodeRedeemed';
      /** `code` in events from before codes were hashed. */
      data: Base & ({ codeHash: string } | { code: string }) & { tokenHash: string; agent: AgentSnapshot };
    }
  | { type: 'AgentActionPendingApproval'; data: Base & { action: AgentActionSnapshot } }
  | { type: 'AgentSpendReserved'; data: Base & { action: AgentActionSnapshot; reservation: Reservation } }
  | { type: 'AgentSpendCommitted'; data: Base & { action: AgentActionSnapshot; agent: AgentSnapshot } }
  | { type: 'AgentActionRejected'; data: Base & { action: AgentActionSnapshot } }
  | { type: 'AgentActionFailed'; data: Base & { action: AgentActionSnapshot } };

/** The facts an action is requested with (the application resolves accounts, the quote, and the time). */
export interface ActionRequest {
  actionId: string;
  type: AgentActionType;
  spend: Spend;
  quote?: Record<string, unknown>;
  transferDetails?: TransferDetails;
}

export type AgentCommand =
  | {
      type: 'CreateAgent';
      platformId: string;
      agentId: string;
      name: string;
      customerId: string;
      platformCustomerId: string;
      policy: AgentPolicy;
      deviceCode: DeviceCode;
      now: string;
    }
  | { type: 'UpdateAgent'; name?: string; isPaused?: boolean; now: string }
  | { type: 'UpdateAgentPolicy'; update: AgentPolicyUpdate; now: string }
  | { type: 'DeleteAgent'; now: string }
  | { type: 'IssueDeviceCode'; deviceCode: DeviceCode; now: string }
  | { type: 'RedeemDeviceCode'; codeHash: string; tokenHash: string; now: string }
  /** Evaluates the policy: refused (403), pending approval, or reserved for execution. */
  | { type: 'RequestAction'; request: ActionRequest; now: string }
  /** The platform approves: evaluated again against the latest policy; reserved, or FAILED with the reason. */
  | { type: 'ApproveAction'; actionId: string; now: string; failure?: string; decision?: AgentActionDecision }
  | { type: 'RejectAction'; actionId: string; reason?: string; now: string; decision?: AgentActionDecision }
  /** The money moved (or started moving): usage counts the spend. */
  | { type: 'CompleteAction'; actionId: string; transaction: Record<string, unknown>; now: string }
  /** Execution failed: the reservation is released. */
  | { type: 'FailAction'; actionId: string; reason: string; now: string };
