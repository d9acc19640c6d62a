import type { AgentActionSnapshot } from '#domain/agents/agent-types.js';
import { toAgentActionResource } from '#domain/agents/agent-views.js';
import type { CardSnapshot } from '#domain/cards/card-types.js';
import { toCardResource } from '#domain/cards/card.js';
import { finishedJobResource, type BulkImportEvent } from '#domain/customer/bulk-import.js';
import type { KycStatus } from '#domain/customer/customer.js';
import { invitationResource, type InvitationSnapshot } from '#domain/invitations/invitation.js';
import { postedBalance, type LedgerState } from '#domain/ledger/ledger.js';
import { toJsonNumber } from '#domain/money.js';
import type { TransactionRecord } from '#domain/transactions/transaction.js';
import { toTransactionResource } from '#domain/transactions/transaction-view.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { Collections } from '#read-models/projections/collections.js';
import { toInternalAccount, type InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Doc } from '#read-models/read-model-store.js';
import { stripPlatform } from '../queries/list-query.js';

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

/** What entries may read besides the event itself. */
export interface WebhookSources {
  /** A read-model document; the read models have passed the event being mapped. */
  readModel<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  /** The platform's ledger right after this ledger event. */
  ledgerAfter(event: RecordedEvent): Promise<LedgerState>;
}

export interface WebhookMapping {
  platform(event: RecordedEvent): string | undefined;
  webhooks(event: RecordedEvent, sources: WebhookSources): WebhookDraft[] | Promise<WebhookDraft[]>;
}

type Data<T> = RecordedEvent<string, T>;
const dataPlatform = (event: RecordedEvent) =>
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
    const doc = await sources.readModel(Collections.customers, customerId);
    const business = doc?.customerType === 'BUSINESS';
    const statusField = business ? 'kybStatus' : 'kycStatus';
    const customer = doc ? stripPlatform(doc) : { id: customerId };
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
const ledgerPlatform = (event: RecordedEvent) =>
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
      const doc = await sources.readModel<InternalAccountDoc>(Collections.internalAccounts, accountId);
      if (!doc?.customerId || balance === undefined) continue;
      drafts.push({
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        timestamp: data.createdAt,
        data: {
          ...toInternalAccount(doc),
          balance: { ...doc.balance, amount: toJsonNumber(balance) },
          updatedAt: data.createdAt,
        },
      });
    }
    return drafts;
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

/** `OUTGOING_PAYMENT.<STATUS>` / `INCOMING_PAYMENT.<STATUS>` with the Transaction resource. */
const paymentStatus: WebhookMapping = {
  platform: dataPlatform,
  webhooks(event) {
    const { transaction } = (event as Data<{ transaction: TransactionRecord }>).data;
    return [
      {
        type: `${transaction.type}_PAYMENT.${transaction.status}`,
        timestamp: transaction.updatedAt,
        data: toTransactionResource(transaction),
      },
    ];
  },
};

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

export const WEBHOOK_EVENT_MAP: Readonly<Record<string, WebhookMapping>> = {
  CustomerKycStatusChanged: customerKyc,
  TransferCreated: balanceUpdated,
  PendingTransferPosted: balanceUpdated,
  PendingTransferVoided: balanceUpdated,
  InvitationClaimed: invitationClaimed,
  TransactionCreated: paymentStatus,
  TransactionStatusChanged: paymentStatus,
  CardStateChanged: cardEvent('card.state_change'),
  CardFundingSourcesChanged: cardEvent('card.funding_source_change'),
  AgentActionPendingApproval: agentActionPendingApproval,
  BulkImportFinished: bulkUploadFinished,
};
