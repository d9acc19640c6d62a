import { describe, expect, it } from '@jest/globals';
import { currency } from '#domain/primitives.js';
import { usdTransferCreated } from '#domain/testing/fixtures.js';
import { WEBHOOK_EVENT_MAP } from './webhook-event-map.js';

import {
  platformUuid,
  platformId,
  customerId,
  alice,
  bob,
  settlement,
  recorded,
  accountDoc,
  sources,
  map,
} from './webhook-event-map.fixtures.js';

describe('the event -> webhook table', () => {
  it('covers every event type that makes a webhook', () => {
    expect(Object.keys(WEBHOOK_EVENT_MAP).sort()).toEqual(
      [
        'AgentActionPendingApproval',
        'BankStatementReconciled',
        'BulkImportFinished',
        'CardFundingSourcesChanged',
        'CardStateChanged',
        'CustomerKycStatusChanged',
        'InternalAccountStatusChanged',
        'InvitationClaimed',
        'PendingTransferPosted',
        'PendingTransferVoided',
        'TransactionCreated',
        'TransactionStatusChanged',
        'TransactionStepStarted',
        'TransferCreated',
        'VerificationCreated',
        'VerificationReviewed',
      ].sort(),
    );
  });

  it('BANK_RECONCILIATION.<DAY_CLOSED|BREAKS_FOUND> carries the day’s reconciliation and its currency', async () => {
    const reconciliation = {
      date: '2026-03-09',
      statementId: 'S1',
      messageId: 'M1',
      fileName: 'statement.xml',
      openingBalance: '0',
      closingBalance: '42',
      expectedOpeningBalance: '0',
      expectedClosingBalance: '0',
      breaks: [{ kind: 'ENTRY_NOT_IN_LEDGER' as const, reference: 'X', statementAmount: '42', detail: 'planted' }],
      closed: false,
      reconciledAt: '2026-03-10T06:00:00.000Z',
    };
    const mapping = WEBHOOK_EVENT_MAP.BankStatementReconciled;
    const event = {
      type: 'BankStatementReconciled',
      data: { platformId: 'Platform:p', currency: 'USD', reconciliation },
    };
    expect(mapping.webhooks(event as never, undefined as never)).toEqual([
      {
        type: 'BANK_RECONCILIATION.BREAKS_FOUND',
        timestamp: reconciliation.reconciledAt,
        data: { ...reconciliation, currency: 'USD' },
      },
    ]);
    const closed = {
      ...event,
      data: { ...event.data, reconciliation: { ...reconciliation, breaks: [], closed: true } },
    };
    expect(mapping.webhooks(closed as never, undefined as never)).toMatchObject([
      { type: 'BANK_RECONCILIATION.DAY_CLOSED' },
    ]);
  });

  it('AGENT_ACTION.PENDING_APPROVAL carries the full AgentAction (without the evaluated spend)', async () => {
    const action = {
      id: 'AgentAction:a',
      agentId: 'Agent:g',
      customerId,
      platformCustomerId: 'p-1',
      status: 'PENDING_APPROVAL',
      type: 'TRANSFER_OUT',
      spend: { permission: 'CREATE_TRANSFERS', accountId: alice, amount: '900', currency: 'USD' },
      transferDetails: {
        amount: 900,
        currency: 'USD',
        sourceAccountId: alice,
        destinationAccountId: 'ExternalAccount:e',
      },
      createdAt: 't1',
      updatedAt: 't1',
    };
    const { platform, webhooks } = await map(
      recorded('AgentActionPendingApproval', { platformId, agentId: 'Agent:g', action }),
    );
    expect(platform).toBe(platformId);
    const { spend: _spend, ...resource } = action;
    expect(webhooks).toEqual([{ type: 'AGENT_ACTION.PENDING_APPROVAL', timestamp: 't1', data: resource }]);
  });

  it('CUSTOMER.KYC_<STATUS> / KYB_<STATUS> carries the customer with the new status', async () => {
    const individual = {
      id: customerId,
      platformId,
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      fullName: 'Ada',
      updatedAt: 't9',
    };
    const event = recorded('CustomerKycStatusChanged', {
      customerId,
      platformId,
      kycStatus: 'REJECTED',
      updatedAt: 't5',
    });
    const { platform, webhooks } = await map(event, sources([individual], []));
    expect(platform).toBe(platformId);
    // The read model may be ahead of the event: the snapshot is the customer as of this change.
    expect(webhooks).toEqual([
      {
        type: 'CUSTOMER.KYC_REJECTED',
        timestamp: 't5',
        data: { id: customerId, customerType: 'INDIVIDUAL', kycStatus: 'REJECTED', fullName: 'Ada', updatedAt: 't5' },
      },
    ]);
    const business = { id: customerId, platformId, customerType: 'BUSINESS', kybStatus: 'PENDING', updatedAt: 't1' };
    const [hook] = (
      await map(
        recorded('CustomerKycStatusChanged', { customerId, platformId, kycStatus: 'APPROVED', updatedAt: 't6' }),
        sources([business], []),
      )
    ).webhooks;
    expect(hook).toMatchObject({ type: 'CUSTOMER.KYB_APPROVED', data: { kybStatus: 'APPROVED' } });
    expect(hook.data).not.toHaveProperty('kycStatus');
  });

  it(
    'INTERNAL_ACCOUNT.BALANCE_UPDATED for each customer account, with the balance right after the ' + 'transfer',
    async () => {
      const stream = `ledger-${platformUuid}`;
      const open = (id: string, allowNegative = false) =>
        recorded('LedgerAccountOpened', { id, currency: 'USD', allowNegative }, stream);
      const transfer = (id: string, debit: string, credit: string, amount: number, pending = false) =>
        recorded('TransferCreated', usdTransferCreated(id, debit, credit, amount, pending, `at-${id}`), stream);
      const events = [
        open(settlement, true),
        open(alice),
        open(bob),
        transfer('t1', settlement, alice, 100),
        transfer('t2', alice, bob, 30),
        transfer('t3', alice, bob, 50, true),
      ];
      const posted = recorded(
        'PendingTransferPosted',
        { id: 't4', pendingId: 't3', amount: '20', createdAt: 'at-t4' },
        stream,
      );
      const hold = transfer('t5', alice, bob, 10, true);
      const voided = recorded('PendingTransferVoided', { id: 't6', pendingId: 't5', createdAt: 'at-t6' }, stream);
      const src = sources(
        [accountDoc(alice, customerId), accountDoc(bob, customerId), accountDoc(settlement)],
        [...events, posted, hold, voided],
      );

      const funding = await map(events[3], src);
      expect(funding.platform).toBe(platformId);
      expect(funding.webhooks).toHaveLength(1); // the settlement account is the platform's own
      expect(funding.webhooks[0]).toMatchObject({
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        timestamp: 'at-t1',
        data: { id: alice, customerId, balance: { amount: 100, currency: { code: 'USD' } }, updatedAt: 'at-t1' },
      });
      expect(funding.webhooks[0].data).not.toHaveProperty('ledger');
      expect(funding.webhooks[0].data).not.toHaveProperty('platformId');

      const between = await map(events[4], src);
      expect(between.webhooks.map((w) => [w.data.id, (w.data.balance as { amount: number }).amount])).toEqual([
        [alice, 70],
        [bob, 30],
      ]);
      const held = await map(events[5], src);
      expect(held.webhooks.map((w) => [w.data.id, (w.data.balance as { amount: number }).amount])).toEqual([
        [alice, 70],
        [bob, 30],
      ]);
      const post = await map(posted, src);
      expect(post.webhooks.map((w) => [w.data.id, (w.data.balance as { amount: number }).amount])).toEqual([
        [alice, 50],
        [bob, 50],
      ]);
      const released = await map(voided, src);
      expect(
        released.webhooks.map((w) => [w.data.id, (w.data.balance as { amount: number }).amount, w.timestamp]),
      ).toEqual([
        [alice, 50, 'at-t6'],
        [bob, 50, 'at-t6'],
      ]);
    },
  );

  it('INVITATION_CLAIMED goes to the inviter platform with the claimed invitation', async () => {
    const invitation = {
      code: 'ABCDEFGHJK',
      platformId,
      inviterCustomerId: customerId,
      inviterUma: '$ada@a.example.com',
      url: 'https://a.example.com/invite/ABCDEFGHJK',
      status: 'CLAIMED',
      amountToSend: { amount: '500', currency: 'USD' },
      createdAt: 't0',
      expiresAt: 't99',
      updatedAt: 't3',
      claimedAt: '2026-01-01T00:00:00.000Z',
      inviteeUma: '$bob@b.example.com',
      claimedByPlatformId: 'Platform:other',
    };
    const { platform, webhooks } = await map(
      recorded('InvitationClaimed', { code: invitation.code, platformId, invitation, claimedAt: invitation.claimedAt }),
    );
    expect(platform).toBe(platformId);
    expect(webhooks).toEqual([
      {
        type: 'INVITATION_CLAIMED',
        timestamp: invitation.claimedAt,
        data: {
          code: invitation.code,
          createdAt: 't0',
          url: invitation.url,
          inviterUma: invitation.inviterUma,
          status: 'CLAIMED',
          claimedAt: invitation.claimedAt,
          expiresAt: 't99',
          inviteeUma: '$bob@b.example.com',
          amountToSend: { amount: 500, currency: currency('USD') },
        },
      },
    ]);
  });

  it('card events carry the Card resource from data.card', async () => {
    const card = {
      id: 'Card:00000000-0000-4000-8000-000000000051',
      customerId,
      state: 'FROZEN',
      fundingSources: [alice],
      updatedAt: 't8',
    };
    const state = await map(
      recorded('CardStateChanged', { platformId, cardId: card.id, previousState: 'ACTIVE', card }),
    );
    expect(state).toEqual({
      platform: platformId,
      webhooks: [{ type: 'card.state_change', timestamp: 't8', data: card }],
    });
    const funding = await map(
      recorded('CardFundingSourcesChanged', { platformId, cardId: card.id, previousFundingSources: [], card }),
    );
    expect(funding.webhooks[0]).toMatchObject({ type: 'card.funding_source_change', data: card });
  });

  it('BULK_UPLOAD.<COMPLETED|FAILED> carries the finished job with its first errors', async () => {
    const jobId = 'Job:00000000-0000-4000-8000-000000000061';
    const error = { correlationId: 'c-2', line: 3, code: 'CONFLICT', message: 'taken' };
    const finished = (status: string, errorsTruncated: boolean) =>
      recorded('BulkImportFinished', {
        jobId,
        platformId,
        status,
        progress: { total: 2, processed: 2, successful: 1, failed: 1 },
        errors: [error],
        errorsTruncated,
        createdAt: 't1',
        completedAt: 't2',
      });
    expect(await map(finished('COMPLETED', false))).toEqual({
      platform: platformId,
      webhooks: [
        {
          type: 'BULK_UPLOAD.COMPLETED',
          timestamp: 't2',
          data: {
            id: jobId,
            status: 'COMPLETED',
            progress: { total: 2, processed: 2, successful: 1, failed: 1 },
            errors: [error],
            completedAt: 't2',
            createdAt: 't1',
            updatedAt: 't2',
          },
        },
      ],
    });
    const failed = await map(finished('FAILED', true));
    expect(failed.webhooks[0]).toMatchObject({ type: 'BULK_UPLOAD.FAILED', data: { errorsTruncated: true } });
  });
});
