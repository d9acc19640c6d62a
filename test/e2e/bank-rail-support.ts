import { expect } from '@jest/globals';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBankOnce } from '#rails/bank-simulator-folders.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import { uniqueDigits, uniqueValue } from '../support/sequence.js';
import { USD_RAIL } from '../support/usd-rail.js';

export { USD_RAIL };

/** A rail's exchange folders and the bank simulator's state file. */
export interface RailFolders {
  outbox: string;
  inbox: string;
  state: string;
}

/** A rail as PATCH /config takes it. */
export type RailConfig = Omit<typeof USD_RAIL, 'creditorSchemeId'> & { creditorSchemeId?: string };

/** A customer with its USD (and EUR, when opened) internal accounts, and the USD account's funding reference. */
export interface RailCustomer {
  id: string;
  usd: string;
  eur: string;
  reference: string;
}

/** A payment in flight on the rail: its id and the end-to-end id its file names. */
interface RailPayment {
  id: string;
  reconciliationInstructions: { reference: string };
}

/** The names of the plain files of a folder (none when it does not exist). */
export async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
}

/**
 * A production platform with a USD bank rail, driven through its API, and the bank simulator on the rail's folders.
 * Waits poll observable state (files, statuses) on real time, for what the worker does in the background.
 */
export class RailDriver {
  constructor(
    readonly api: Client,
    readonly folders: RailFolders,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Sets the platform's rail (USD_RAIL unless another; PATCH /config) and answers a driver on its folders. */
  static async configure(api: Client, stateFile: string, timeoutMs?: number, config: RailConfig = USD_RAIL) {
    const patched = await api.patch('/config', { rails: [config] });
    expect(patched.status).toBe(200);
    const [rail] = patched.body.rails;
    expect(rail).toMatchObject({ ...config, outboxFolder: expect.any(String), inboxFolder: expect.any(String) });
    return new RailDriver(api, { outbox: rail.outboxFolder, inbox: rail.inboxFolder, state: stateFile }, timeoutMs);
  }

  /** One run of the bank on the rail's folders (or on others, for files the rail is not to see yet). */
  bank(folders: RailFolders = this.folders, now = new Date()) {
    return runBankOnce({ outboxDir: folders.outbox, inboxDir: folders.inbox, stateFile: folders.state, now });
  }

  async customer(): Promise<RailCustomer> {
    const res = await this.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('rail'),
      fullName: 'Ada Lovelace',
      kycStatus: 'APPROVED',
      currencies: ['USD', 'EUR'],
    });
    expect(res.status).toBe(201);
    const accounts = await this.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(res.body.id)}`);
    const usd = accounts.body.data.find((a: any) => a.balance.currency.code === 'USD');
    const eur = accounts.body.data.find((a: any) => a.balance.currency.code === 'EUR');
    const reference: string = usd.fundingPaymentInstructions[0].accountOrWalletInfo.reference;
    return { id: res.body.id as string, usd: usd.id as string, eur: eur?.id as string, reference };
  }

  /** A USD external account whose number ends in `suffix` (the simulator's outcome), with a mandate unless not. */
  async external(customerId: string, suffix: string, mandate = true): Promise<string> {
    const res = await this.api.post('/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: uniqueDigits('rail-ext', 7) + suffix,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
      ...(mandate ? { directDebitMandate: { mandateId: uniqueValue('MANDATE'), signedOn: '2026-01-15' } } : {}),
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async transaction(id: string): Promise<any> {
    return (await this.api.get(`/transactions/${id}`)).body;
  }

  settles(id: string, status: string): Promise<any> {
    return poll(
      () => this.transaction(id),
      (tx) => tx.status === status,
      { what: `${id} ${status}`, timeoutMs: this.timeoutMs, intervalMs: 20 },
    );
  }

  async balance(accountId: string): Promise<number> {
    return (await this.api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  /** Waits until the account holds `amount`. */
  holds(accountId: string, amount: number): Promise<number> {
    return poll(
      () => this.balance(accountId),
      (n) => n === amount,
      { what: `${accountId} holding ${amount}`, timeoutMs: this.timeoutMs, intervalMs: 20 },
    );
  }

  /**
   * A pull of `amount` from an external account with a mandate, ending in `suffix` (the simulator's outcome: booked
   * unless another), into `destination`, PROCESSING.
   */
  async pull(customerId: string, destination: string, amount: number, suffix = '101'): Promise<any> {
    return this.transfer('/transfer-in', await this.external(customerId, suffix), destination, amount);
  }

  /** A transfer of `amount` out of an internal account to an external one, PROCESSING. */
  transferOut(sourceAccountId: string, destinationAccountId: string, amount: number): Promise<any> {
    return this.transfer('/transfer-out', sourceAccountId, destinationAccountId, amount);
  }

  private async transfer(path: string, source: string, destination: string, amount: number): Promise<any> {
    const res = await this.api.post(path, {
      source: { accountId: source },
      destination: { accountId: destination },
      amount,
    });
    expect([res.status, res.body.status]).toEqual([201, 'PROCESSING']);
    return res.body;
  }

  /** Waits for the payment's file, plays the bank once (at `now`) and waits until the payment completes. */
  async booked(payment: RailPayment, now?: Date): Promise<any> {
    await this.outboxHolds(payment.reconciliationInstructions.reference);
    await this.bank(this.folders, now);
    return this.settles(payment.id, 'COMPLETED');
  }

  /** A customer whose USD account holds `amount`, pulled in and booked by the bank. */
  async funded(amount: number): Promise<RailCustomer> {
    const c = await this.customer();
    await this.booked(await this.pull(c.id, c.usd, amount));
    return c;
  }

  /** Every initiation file the rail wrote, with those the bank took (`taken/...`). */
  async outboxFiles(): Promise<{ name: string; xml: string }[]> {
    const { outbox } = this.folders;
    const names = [
      ...(await filesIn(outbox)),
      ...(await filesIn(join(outbox, 'taken'))).map((n) => `taken/${n}`),
    ].filter((n) => n.endsWith('.xml'));
    return Promise.all(names.map(async (name) => ({ name, xml: await readFile(join(outbox, name), 'utf8') })));
  }

  /** Waits until the rail has written a file naming `endToEndId`; answers those files' text. */
  outboxHolds(endToEndId: string): Promise<string[]> {
    return poll(
      async () =>
        (await this.outboxFiles())
          .map((f) => f.xml)
          .filter((x) => x.includes(`<EndToEndId>${endToEndId}</EndToEndId>`)),
      (found) => found.length > 0,
      { what: `a file with ${endToEndId}`, timeoutMs: this.timeoutMs, intervalMs: 20 },
    );
  }

  /** A quote paying `amount` from an internal account out to an external one, executed at once (PROCESSING). */
  async payout(sourceAccountId: string, destinationAccountId: string, amount: number): Promise<any> {
    const res = await this.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: sourceAccountId },
      destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });
    expect([res.status, res.body.status]).toEqual([201, 'PROCESSING']);
    return res.body;
  }

  /** Drops a file into the rail's inbox whole (written under a temporary name, then renamed), as SFTP clients do. */
  async drop(name: string, content: string | Buffer): Promise<void> {
    const temporary = join(this.folders.inbox, `.${name}.part`);
    await writeFile(temporary, content);
    await rename(temporary, join(this.folders.inbox, name));
  }

  /** Waits until the rail has taken every file of its inbox (each archived into processed/ or quarantine/). */
  inboxEmpty(timeoutMs = this.timeoutMs): Promise<string[]> {
    return poll(
      () => filesIn(this.folders.inbox),
      (left) => left.length === 0,
      { what: 'an empty inbox', timeoutMs, intervalMs: 20 },
    );
  }

  archived(to: 'processed' | 'quarantine'): Promise<string[]> {
    return filesIn(join(this.folders.inbox, to));
  }

  /** Waits until the day's statement is reconciled; answers the reconciliation. */
  reconciled(date: string): Promise<any> {
    return poll<any>(
      async () => (await this.api.get('/bank-rails/USD/reconciliations')).body.data.find((r: any) => r.date === date),
      Boolean,
      { what: `the reconciliation of ${date}`, timeoutMs: this.timeoutMs, intervalMs: 20 },
    );
  }
}
