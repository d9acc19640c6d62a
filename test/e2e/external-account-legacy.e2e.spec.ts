import { describe, expect, it } from '@jest/globals';
import { CommandRunner } from '#application/command-runner.js';
import { verifyAudit } from '#application/audit/audit-verify.js';
import type { Decider } from '#domain/decider.js';
import {
  externalAccountDecider,
  type ExternalAccountEvent,
  type ExternalAccountState,
} from '#domain/external-accounts/external-account.js';
import { streams } from '#domain/primitives.js';
import { createScratchReadModelStore } from '#read-models/index.js';
import { allProjections } from '#read-models/projections/index.js';
import { externalAccountsHarness } from './external-account-support.js';

const START = Date.UTC(2026, 1, 3, 9);

/** Appends events exactly as given, as an earlier version of the service wrote them; folds as today's service. */
const verbatim: Decider<ExternalAccountState, ExternalAccountEvent[], ExternalAccountEvent> = {
  ...externalAccountDecider,
  decide: (events) => events,
};

describe('external accounts stored before the public API’s account types', () => {
  const kit = externalAccountsHarness(START);

  it('read with today’s names, can be deleted, and the log still passes audit verify', async () => {
    const runner = kit.t.service.app.get(CommandRunner);
    const platformId = kit.t.service.sandbox!.platformId;
    const at = new Date(kit.clock.now()).toISOString();
    const old = [
      ['MXN', { accountType: 'MXN_ACCOUNT', clabe: '002010077777777771' }, '002010077777777771'],
      ['INR', { accountType: 'UPI', vpa: 'ada@okhdfc' }, 'ada@okhdfc'],
      [
        'CAD',
        { accountType: 'CAD_ACCOUNT', accountNumber: '1234567', institutionNumber: '001', transitNumber: '12345' },
      ],
      ['BTC', { accountType: 'LIGHTNING', address: 'ada@getalby.com' }, 'ada@getalby.com'],
    ] as const;
    const ids: string[] = [];
    for (const [i, [currency, accountInfo, identifier]] of old.entries()) {
      const id = `ExternalAccount:00000000-0000-4000-8000-00000000000${i}`;
      ids.push(id);
      const account = {
        id,
        platformId,
        customerId: kit.ada.id,
        currency,
        status: 'ACTIVE' as const,
        accountInfo,
        primaryIdentifier: identifier ?? '1234567',
        defaultUmaDepositAccount: false,
        beneficiary: { fullName: 'Ada Lovelace' },
        beneficiaryVerificationStatus: 'MATCHED' as const,
        createdAt: at,
        updatedAt: at,
      };
      const created: ExternalAccountEvent = {
        type: 'ExternalAccountCreated',
        data: { externalAccountId: id, platformId, account },
      };
      const metadata = { platformId, actor: 'system:test', correlationId: `legacy-${i}` };
      await runner.run(streams.externalAccount(id), verbatim, [created], { metadata });
    }
    const get = async (id: string) => (await kit.api.get(`/customers/external-accounts/${id}`)).body.accountInfo;
    const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
    expect(await get(ids[0])).toEqual({
      accountType: 'MXN_ACCOUNT',
      clabeNumber: '002010077777777771',
      beneficiary,
      paymentRails: ['SPEI'],
    });
    expect(await get(ids[1])).toEqual({
      accountType: 'INR_ACCOUNT',
      vpa: 'ada@okhdfc',
      beneficiary,
      paymentRails: ['UPI'],
    });
    expect(await get(ids[2])).toEqual({
      accountType: 'CAD_ACCOUNT',
      accountNumber: '1234567',
      bankCode: '001',
      branchCode: '12345',
      beneficiary,
      paymentRails: ['BANK_TRANSFER'],
    });
    expect(await get(ids[3])).toEqual({ accountType: 'LIGHTNING', lightningAddress: 'ada@getalby.com' });
    expect((await kit.api.delete(`/customers/external-accounts/${ids[1]}`)).status).toBe(204);

    const { eventStore, readModels, projections } = kit.t.service.infra;
    expect(await projections.waitForPosition(await eventStore.headPosition(), 5_000)).toBe(true);
    const report = await verifyAudit({
      events: eventStore,
      live: readModels,
      projections: allProjections,
      scratch: createScratchReadModelStore,
    });
    expect(report.findings).toEqual([]);
  });
});
