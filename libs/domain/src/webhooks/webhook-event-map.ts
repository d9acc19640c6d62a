import type { AgentActionSnapshot } from '../agents/agent-types.js';
import { toAgentActionResource } from '../agents/agent-views.js';
import type { CardSnapshot } from '../cards/card-types.js';
import { toCardResource } from '../cards/card.js';
import type { BankRailEvent } from '../payments/rails/bank-rail-stream.js';
import { finishedJobResource, type BulkImportEvent } from '../customers/bulk-import.js';
import type { KycStatus } from '../customers/customer.js';
import { invitationResource, type InvitationSnapshot } from '../invitations/invitation.js';
import { postedBalance, type LedgerState } from '../ledger/ledger.js';
import { toJsonNumber } from '../primitives.js';
import {
  toTransactionResource,
  type TransactionRecord,
  type TransactionStatus,
} from '../payments/transactions/transaction.js';
import {
  paymentWebhookTypes,
  refundOutcome,
  refundReason,
  requestedReceiverFields,
  type PaymentChange,
  type ReceiverProfile,
} from './payment-webhooks.js';
import { toVerificationResource } from '../verifications/verification-view.js';
import type { VerificationSnapshot } from '../verifications/verification.js';

/**
 * Which events of the log become webhooks, and what they carry. One entry per event type:
 * `platform` names the platform whose endpoint receives them, `webhooks` builds zero or more
 * `{type, timestamp, data}` where `data` is the resource snapshot. Entries must be deterministic
 * for a given event (the dispatcher may run an event again after a crash and derives webhook ids
 * from the event id and the position in the returned list). To send a new kind of webhook, add
 * an entry here; nothing else changes.
 */
export interface WebhookDraft {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** An event of the log as the table reads it (the event store's recorded events are such). */
export interface WebhookSourceEvent<Data = Record<string, unknown>> {
  id: string;
  type: string;
  data: Data;
  streamName: string;
  revision: bigint;
  position: bigint;
  recordedAt: Date;
}

/** An internal account as the API shows it (its read-model document without the platform and ledger fields). */
export type InternalAccountResource = Record<string, unknown> & {
  customerId?: string;
  balance: { amount: number; currency: unknown };
};

/** What entries may read besides the event itself. */
export interface WebhookSources {
  /** The customer as the API shows it; the read models have passed the event being mapped. */
  customer(id: string): Promise<Record<string, unknown> | undefined>;
  /** The internal account as the API shows it; the read models have passed the event being mapped. */
  internalAccount(id: string): Promise<InternalAccountResource | undefined>;
  /** The platform's ledger right after this ledger event. */
  ledgerAfter(event: WebhookSourceEvent): Promise<LedgerState>;
}

export interface WebhookMapping {
  platform(event: WebhookSourceEvent): string | undefined;
  webhooks(event: WebhookSourceEvent, sources: WebhookSources): WebhookDraft[] | Promise<WebhookDraft[]>;
}

type Data<T> = WebhookSourceEvent<T>;
const dataPlatform = (event: WebhookSourceEvent) =>
  typeof event.data.platformId === 'string' ? event.data.platformId : undefined;

/**
 * `CUSTOMER.KYC_<STATUS>` for individuals and `CUSTOMER.KYB_<STATUS>` for businesses (whose status
 * also follows their beneficial owners), with the customer as of this change.
 */
const customerKyc: WebhookMapping = {
  platform: dataPlatform,
  async webhooks(event, sources) {
    const { customerId, kycStatus, updatedAt } = (
      event as Data<{ customerId: string; kycStatus: KycStatus; updatedAt: string }>
    ).data;
    const found = await sources.customer(customerId);
    const business = found?.customerType === 'BUSINESS';
    const statusField = business ? 'kybStatus' : 'kycStatus';
    const customer = found ?? { id: customerId };
    return [
      {
        type: `CUSTOMER.${business ? 'KYB' : 'KYC'}_${kycStatus}`,
        timestamp: updatedAt,
        data: { ...customer, [statusField]: kycStatus, updatedAt },
      },
    ];
  },
};

/** The ledger stream is `ledger-<platform uuid>`. */
const ledgerPlatform = (event: WebhookSourceEvent) =>
  event.streamName.startsWith('ledger-') ? `Platform:${event.streamName.slice('ledger-'.length)}` : undefined;

/**
 * `INTERNAL_ACCOUNT.BALANCE_UPDATED` for each customer account a transfer touches (settlement
 * accounts are the platform's own and send none), with the balance right after this transfer.
 */
const balanceUpdated: WebhookMapping = {
  platform: ledgerPlatform,
  async webhooks(event, sources) {
    const data = event.data as {
      debitAccountId?: string;
      creditAccountId?: string;
      pendingId?: string;
      createdAt: string;
    };
    const ledger = await sources.ledgerAfter(event);
    const held = data.pendingId ? ledger.transfers.get(data.pendingId) : undefined;
    const touched = data.pendingId
      ? held
        ? [held.debitAccountId, held.creditAccountId]
        : []
      : [data.debitAccountId!, data.creditAccountId!];
    // Balances are taken before any await: the ledger state moves on with the next event.
    const balances = touched.map((accountId) => {
      const account = ledger.accounts.get(accountId);
      return { accountId, balance: account ? postedBalance(account) : undefined };
    });
    const drafts: WebhookDraft[] = [];
    for (const { accountId, balance } of balances) {
      const account = await sources.internalAccount(accountId);
      if (!account?.customerId || balance === undefined) continue;
      drafts.push({
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        timestamp: data.createdAt,
        data: {
          ...account,
          balance: { ...account.balance, amount: toJsonNumber(balance) },
          updatedAt: data.createdAt,
        },
      });
    }
    return drafts;
  },
};

/** `INTERNAL_ACCOUNT.STATUS_UPDATED` when an account is activated or closed (a deleted customer's accounts close). */
const accountStatusUpdated: WebhookMapping = {
  platform: dataPlatform,
  async webhooks(event, sources) {
    const { accountId, status, updatedAt } = (event as Data<{ accountId: string; status: string; updatedAt: string }>)
      .data;
    const account = await sources.internalAccount(accountId);
    if (!account) return [];
    return [
      {
        type: 'INTERNAL_ACCOUNT.STATUS_UPDATED',
        timestamp: updatedAt,
        data: { ...account, status, updatedAt },
      },
    ];
  },
};

/** `VERIFICATION.<verificationStatus>` with the Verification resource, when a verification is recorded. */
const verificationUpdated: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { verification } = (event as Data<{ verification: VerificationSnapshot }>).data;
    const resource = toVerificationResource(verification);
    return [
      {
        type: `VERIFICATION.${resource.verificationStatus}`,
        timestamp: verification.updatedAt,
        data: { ...resource },
      },
    ];
  },
};

/** The inviter's platform learns of the claim (it then sends any `amountToSend`). */
const invitationClaimed: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { invitation, claimedAt } = (event as Data<{ invitation: InvitationSnapshot; claimedAt: string }>).data;
    return [
      { type: 'INVITATION_CLAIMED', timestamp: claimedAt, data: invitationResource(invitation, new Date(claimedAt)) },
    ];
  },
};

/**
 * The public API's payment webhook types (paymentWebhookTypes decides which a change sends), with
 * the Transaction resource. An outgoing change that refunds carries `refund`; every incoming payment webhook
 * carries `requestedReceiverCustomerInfoFields` (what the approval request, `INCOMING_PAYMENT.PENDING`, asks for).
 */
const paymentChange = (kind: PaymentChange['kind']): WebhookMapping => ({
  platform: dataPlatform,
  async webhooks(event, sources) {
    const data = (
      event as Data<{ transaction: TransactionRecord; previousStatus?: TransactionStatus; startedAt?: string }>
    ).data;
    const tx = data.transaction;
    const change: PaymentChange =
      kind === 'step'
        ? { kind, transaction: tx, step: tx.activeStep! }
        : kind === 'status'
          ? { kind, transaction: tx, previousStatus: data.previousStatus! }
          : { kind, transaction: tx };
    if (kind === 'step' && !tx.activeStep) return [];
    const types = paymentWebhookTypes(change);
    if (types.length === 0) return [];
    // A step has not changed the record yet: it started at `startedAt` (on the platform's clock).
    const timestamp = kind === 'step' ? (data.startedAt ?? event.recordedAt.toISOString()) : tx.updatedAt;
    const resource = toTransactionResource(tx);
    const refund = refundOutcome(change);
    if (refund && resource.refund === undefined) {
      resource.refund = {
        reference: `${tx.reference}-REFUND`,
        initiatedAt: timestamp,
        ...(refund === 'COMPLETED' ? { settledAt: timestamp } : {}),
        status: refund,
        reason: refundReason(tx),
      };
    }
    if (tx.type === 'INCOMING') {
      const receiver = await sources.customer(tx.customerId);
      resource.requestedReceiverCustomerInfoFields = requestedReceiverFields(receiver as ReceiverProfile);
    }
    return types.map((type) => ({ type, timestamp, data: resource }));
  },
});

/** Card events carry the Card resource as `data.card`. */
const cardEvent = (type: string): WebhookMapping => ({
  platform: dataPlatform,
  webhooks(event) {
    const { card } = (event as Data<{ card: CardSnapshot }>).data;
    return [{ type, timestamp: card.updatedAt, data: { ...toCardResource(card) } }];
  },
});

/** An agent's action waits for the platform's approval: the full AgentAction, quote or transfer details included. */
const agentActionPendingApproval: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { action } = (event as Data<{ action: AgentActionSnapshot }>).data;
    return [
      { type: 'AGENT_ACTION.PENDING_APPROVAL', timestamp: action.createdAt, data: toAgentActionResource(action) },
    ];
  },
};

/**
 * A bulk customer import ended: `BULK_UPLOAD.COMPLETED` (some customers created) or
 * `BULK_UPLOAD.FAILED` (none), with the job, its progress and its first errors (all of them unless
 * `errorsTruncated`; GET /customers/bulk/jobs/{jobId} lists every one).
 */
const bulkUploadFinished: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { data } = event as unknown as Extract<BulkImportEvent, { type: 'BulkImportFinished' }>;
    return [
      { type: `BULK_UPLOAD.${data.status}`, timestamp: data.completedAt, data: { ...finishedJobResource(data) } },
    ];
  },
};

/** A production platform's bank statement day reconciled: closed, or with its breaks. */
const bankReconciled: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { data } = event as unknown as Extract<BankRailEvent, { type: 'BankStatementReconciled' }>;
    const { reconciliation } = data;
    const type = reconciliation.closed ? 'BANK_RECONCILIATION.DAY_CLOSED' : 'BANK_RECONCILIATION.BREAKS_FOUND';
    return [{ type, timestamp: reconciliation.reconciledAt, data: { ...reconciliation, currency: data.currency } }];
  },
};

export const WEBHOOK_EVENT_MAP: Readonly<Record<string, WebhookMapping>> = {
  CustomerKycStatusChanged: customerKyc,
  TransferCreated: balanceUpdated,
  PendingTransferPosted: balanceUpdated,
  PendingTransferVoided: balanceUpdated,
  InvitationClaimed: invitationClaimed,
  InternalAccountStatusChanged: accountStatusUpdated,
  VerificationCreated: verificationUpdated,
  VerificationReviewed: verificationUpdated,
  TransactionCreated: paymentChange('created'),
  TransactionStatusChanged: paymentChange('status'),
  TransactionStepStarted: paymentChange('step'),
  CardStateChanged: cardEvent('card.state_change'),
  CardFundingSourcesChanged: cardEvent('card.funding_source_change'),
  AgentActionPendingApproval: agentActionPendingApproval,
  BulkImportFinished: bulkUploadFinished,
  BankStatementReconciled: bankReconciled,
};
