import { Logger } from '@nestjs/common';
import { DomainError } from '#domain/errors.js';
import { accountInfoView, beneficiaryName } from '#domain/external-accounts/account-info-view.js';
import { streams } from '#domain/primitives.js';
import type { BankMessage, RailEffect } from '#domain/payments/rails/bank-messages.js';
import {
  bankRailDecider,
  railPrefix,
  unappliedFiles,
  unwrittenFiles,
  type BankRailCommand,
  type BankRailState,
  type InboxFile,
  type InstructionKind,
  type RailInstruction,
} from '#domain/payments/rails/bank-rail-stream.js';
import {
  counterpartyBankAccount,
  railFolder,
  railFor,
  type BankRailConfig,
} from '#domain/payments/rails/bank-rails.js';
import type { PaymentRef, PaymentStep } from '#domain/payments/transactions/payment-plan.js';
import type { TransactionRecord } from '#domain/payments/transactions/transaction.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { CommandRunner } from '../../command-runner.js';
import { faultPoint, type PlatformClocks } from '../../command-context.js';
import { externalAccountStream } from '../transactions/payment-accounts.js';
import { externalAccountDecider } from '#domain/external-accounts/external-account.js';
import type { PaymentProcess } from '../transactions/payment-process.js';
import { BankFileUnreadable, type BankFiles, type InboxItem } from './bank-files.js';
import { BankCredits } from './bank-credits.js';
import { fundingReferences } from '#domain/payments/rails/bank-credits.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';

const KINDS: readonly InstructionKind[] = ['CREDIT_TRANSFER', 'DIRECT_DEBIT'];
/** Payments an inbox file's effects are applied to at once. */
const APPLY_AT_ONCE = 32;
const noop = () => undefined;

/** How many entries of a notification one record holds: a larger file is taken in parts of this many. */
const PART_ENTRIES = 2_000;

interface Part {
  /** The file's digest for its first part, `<digest>/<n>` for the n-th. */
  key: string;
  message: BankMessage | { unreadable: string };
}

/** A notification too large for one record of the rail's stream, in parts; any other file whole. */
export function partsOf(sha256: string, message: BankMessage | { unreadable: string }, size = PART_ENTRIES): Part[] {
  if (!('type' in message) || message.type !== 'NOTIFICATION' || message.entries.length <= size)
    return [{ key: sha256, message }];
  const parts: Part[] = [];
  for (let from = 0; from < message.entries.length; from += size) {
    const n = from / size + 1;
    const entries = message.entries.slice(from, from + size);
    parts.push({ key: n === 1 ? sha256 : `${sha256}/${n}`, message: { ...message, entries } });
  }
  return parts;
}

/** The metadata of what the rail records: the platform, acting as the system. */
const systemMetadata = (platformId: string): EventMetadata => ({
  platformId,
  actor: 'system:bank-rail',
  correlationId: `bank-rail-${platformId}`,
});

/**
 * A production platform's bank rail over ISO 20022 files. Out: each payment on the rail is queued as an instruction
 * once it is PROCESSING (its source held), then written with the others waiting into one initiation file per kind
 * (its message id recorded first). In: each file the bank delivers is recorded with what it does to which payment
 * (or why it cannot be taken) before any payment moves, then applied, then archived; a file recorded and not applied
 * is applied again after a crash, and every step it takes is idempotent.
 */
export class FileRail {
  private readonly logger = new Logger('FileRail');
  /** Per rail (`platform/currency`): the flush running, and the one its late callers wait for. */
  private readonly flushes = new Map<string, { running: Promise<void>; next?: Promise<void> }>();

  private readonly credits: BankCredits;

  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    private readonly process: PaymentProcess,
    private readonly files: BankFiles,
    readModels: ReadModelStore,
  ) {
    this.credits = new BankCredits(runner, clocks, readModels, process);
  }

  private async record(platformId: string, currency: string, command: BankRailCommand): Promise<BankRailState> {
    const { state } = await this.runner.run(streams.bankRail(platformId, currency), bankRailDecider, command, {
      metadata: systemMetadata(platformId),
      answersAfter: 'append',
    });
    return state;
  }

  private async railOf(platformId: string, currency: string): Promise<BankRailConfig | undefined> {
    const { state } = await this.runner.load(streams.platform(platformId), platformDecider);
    return railFor(state.rails, currency);
  }

  /**
   * Queues a PROCESSING payment's instruction (a no-op when queued already). The worker's next pass writes every
   * instruction waiting into one file per kind, so the payments of a pass leave together (`writeAtOnce`: at once,
   * for a worker that does not poll).
   */
  async submit(ref: PaymentRef, platformId: string, writeAtOnce = false): Promise<void> {
    const tx = await this.process.load(ref);
    const rail = tx.plan.rail;
    if (!rail || tx.status !== 'PROCESSING') return;
    const instruction = await this.instructionOf(tx, rail.instruction);
    await this.record(platformId, rail.currency, { type: 'QueueInstruction', platformId, instruction });
    if (writeAtOnce) await this.flush(platformId, rail.currency);
  }

  private async instructionOf(tx: TransactionRecord, kind: InstructionKind): Promise<RailInstruction> {
    const externalId = kind === 'CREDIT_TRANSFER' ? tx.destination.accountId : tx.source.accountId;
    // Read even when deleted since: the payment was accepted with its details and is paid with them.
    const { state: external } = await this.runner.load(externalAccountStream(externalId ?? ''), externalAccountDecider);
    if (!external.exists || external.platformId !== tx.platformId)
      throw new Error(`external account ${externalId} of ${tx.id} is not this platform's`);
    const info = accountInfoView(external);
    const counterparty = counterpartyBankAccount(
      info,
      beneficiaryName(info) ?? external.beneficiaryVerifiedData?.fullName,
    );
    if (!counterparty) throw new Error(`external account ${external.id} has no bank account details`);
    const now = await this.clocks.now(tx.platformId);
    return {
      endToEndId: tx.reference,
      ref: tx.quoteId ? { kind: 'quote', id: tx.quoteId } : { kind: 'transaction', id: tx.id },
      kind,
      amount: kind === 'CREDIT_TRANSFER' ? tx.receivedAmount : tx.sentAmount,
      currency: kind === 'CREDIT_TRANSFER' ? tx.destination.currency : tx.source.currency,
      counterparty,
      ...(kind === 'DIRECT_DEBIT' && external.directDebitMandate ? { mandate: external.directDebitMandate } : {}),
      requestedDate: now.toISOString().slice(0, 10),
      queuedAt: now.toISOString(),
    };
  }

  /**
   * Puts every queued instruction into a file (recorded first), and writes every recorded file not yet written. One
   * flush runs at a time per rail: the callers that arrive while one runs share the next, which puts all that they
   * queued into one file (rather than a file each, and two flushes writing the same file at once).
   */
  flush(platformId: string, currency: string): Promise<void> {
    const key = `${platformId}/${currency}`;
    const slot = this.flushes.get(key);
    if (slot) {
      slot.next ??= slot.running.then(noop, noop).then(() => {
        this.flushes.delete(key);
        return this.flush(platformId, currency);
      });
      return slot.next;
    }
    const entry: { running: Promise<void>; next?: Promise<void> } = {
      running: this.flushNow(platformId, currency).finally(() => {
        if (this.flushes.get(key) === entry && !entry.next) this.flushes.delete(key);
      }),
    };
    this.flushes.set(key, entry);
    return entry.running;
  }

  private async flushNow(platformId: string, currency: string): Promise<void> {
    const rail = await this.railOf(platformId, currency);
    if (!rail) return;
    const now = (await this.clocks.now(platformId)).toISOString();
    const prefix = railPrefix(platformId, currency);
    let state: BankRailState | undefined;
    for (const kind of KINDS)
      state = await this.record(platformId, currency, { type: 'CreateFile', platformId, kind, prefix, now });
    if (!state) return;
    const folder = railFolder(platformId, currency);
    await this.files.ensureFolders(folder);
    const { state: platform } = await this.runner.load(streams.platform(platformId), platformDecider);
    for (const file of unwrittenFiles(state)) {
      const instructions = file.endToEndIds.map((id) => state.instructions.get(id)).filter((i) => i !== undefined);
      const xml = this.files.render(file, instructions, rail, platform.name ?? rail.account.name);
      await this.files.writeOutbox(folder, file.fileName, xml);
      faultPoint('rail-file-written');
      await this.record(platformId, currency, { type: 'MarkFileWritten', platformId, messageId: file.messageId, now });
    }
  }

  /** Reads every file in the rail's inbox once; a file already taken and archived is never applied again. */
  async processInbox(platformId: string, currency: string): Promise<void> {
    const rail = await this.railOf(platformId, currency);
    if (!rail) return;
    const folder = railFolder(platformId, currency);
    for (const item of await this.files.listInbox(folder)) await this.take(platformId, rail, folder, item);
    // Files recorded by a process that died before applying them.
    const { state } = await this.runner.load(streams.bankRail(platformId, currency), bankRailDecider);
    for (const file of unappliedFiles(state)) await this.apply(platformId, currency, file);
  }

  private async take(platformId: string, rail: BankRailConfig, folder: string, item: InboxItem): Promise<void> {
    const currency = rail.currency;
    const { state } = await this.runner.load(streams.bankRail(platformId, currency), bankRailDecider);
    const known = state.inbox.get(item.sha256);
    const resumed = known?.fileName === item.name;
    // The same file under the same name, recorded and not yet archived: the process that took it died before.
    if (resumed && known.quarantineReason) {
      if (!(await this.files.isArchived(folder, item.name, 'quarantine')))
        return this.files.archive(folder, item.name, 'quarantine');
    } else if (resumed && (await this.files.isArchived(folder, item.name, 'processed'))) {
      // Archived before: this is the file dropped again, a copy (quarantined below when recorded).
    } else if (resumed) {
      for (const part of partsOf(item.sha256, this.readMessage(item.content, currency)))
        await this.takePart(platformId, rail, item, part, true);
      return this.files.archive(folder, item.name, 'processed');
    }
    for (const part of partsOf(item.sha256, this.readMessage(item.content, currency))) {
      const taken = await this.takePart(platformId, rail, item, part, false);
      if (!taken) {
        this.logger.warn(`${folder}/inbox/${item.name} quarantined`);
        return this.files.archive(folder, item.name, 'quarantine');
      }
    }
    await this.files.archive(folder, item.name, 'processed');
  }

  /**
   * Records one part of an inbox file (all of it, unless it is a notification too large for one record) with its
   * effects, then applies them; resuming a file a process died taking, a part recorded before is only applied if it
   * was not. False: quarantined.
   */
  private async takePart(
    platformId: string,
    rail: BankRailConfig,
    item: InboxItem,
    part: Part,
    resuming: boolean,
  ): Promise<boolean> {
    const currency = rail.currency;
    const { state } = await this.runner.load(streams.bankRail(platformId, currency), bankRailDecider);
    const known = state.inbox.get(part.key);
    if (resuming && known?.fileName === item.name && !known.quarantineReason) {
      if (!known.appliedAt) await this.apply(platformId, currency, known);
      return true;
    }
    const now = (await this.clocks.now(platformId)).toISOString();
    const { message } = part;
    const references = 'type' in message && message.type === 'NOTIFICATION' ? fundingReferences(message.entries) : [];
    const after = await this.record(platformId, currency, {
      type: 'ReceiveFile',
      platformId,
      sha256: part.key,
      fileName: item.name,
      message,
      account: rail.account,
      fundingAccounts: await this.credits.fundingAccounts(platformId, currency, references),
      now,
    });
    const quarantined = after.quarantine.some(
      (f) => f.sha256 === part.key && f.receivedAt === now && f.fileName === item.name,
    );
    if (quarantined) return false;
    const file = after.inbox.get(part.key);
    faultPoint('rail-inbox-recorded');
    if (file) await this.apply(platformId, currency, file);
    return true;
  }

  private readMessage(content: string, currency: string): BankMessage | { unreadable: string } {
    try {
      return this.files.read(content, currency);
    } catch (error) {
      if (error instanceof BankFileUnreadable) return { unreadable: error.reason };
      throw error;
    }
  }

  /**
   * Applies a recorded file's effects to its payments (each step a no-op where it already happened): each payment's in
   * the file's order, up to APPLY_AT_ONCE payments at a time, so that their appends (the ledger's above all) are
   * committed together rather than one fsync after the other.
   */
  private async apply(platformId: string, currency: string, file: InboxFile): Promise<void> {
    const metadata = systemMetadata(platformId);
    const byPayment = new Map<string, RailEffect[]>();
    for (const effect of file.effects) {
      // A credit's return is the suspense account's business, not a payment's.
      if (effect.ref.kind === 'credit') {
        await this.credits.settleReturn(platformId, currency, effect.ref.id, effect, metadata);
        continue;
      }
      const list = byPayment.get(effect.ref.id);
      if (list) list.push(effect);
      else byPayment.set(effect.ref.id, [effect]);
    }
    const payments = [...byPayment.values()];
    const refused: { endToEndId: string; reason: string }[] = [];
    let next = 0;
    const lane = async () => {
      while (next < payments.length)
        for (const effect of payments[next++]) {
          const step = stepFor(effect);
          if (!step || effect.ref.kind === 'credit') continue;
          try {
            // A return is news of the booking too: taken before the booking's own notification (delivered late, or
            // lost), it completes the payment first, so that the return gives back what was booked (the booking, when
            // it comes, finds the payment ended and does nothing).
            if (effect.action === 'RETURN') await this.process.applyStep(effect.ref, { type: 'COMPLETE' }, metadata);
            await this.process.applyStep(effect.ref, step, metadata);
          } catch (error) {
            // A payment that refuses its step (a reversal the account can no longer cover) must not hold up the
            // rail: the step stays claimed on the payment, and the refusal is shown with the file.
            if (!(error instanceof DomainError)) throw error;
            refused.push({ endToEndId: effect.endToEndId, reason: `${error.code}: ${error.message}` });
          }
          faultPoint('rail-inbox-halfway');
        }
    };
    // Every lane ends before the file is marked or the error is thrown: nothing of this file runs behind the caller.
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(APPLY_AT_ONCE, payments.length) }, lane));
    const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (failed) throw failed.reason;
    for (const credit of file.credits ?? []) await this.credits.book(platformId, credit, metadata);
    const now = (await this.clocks.now(platformId)).toISOString();
    if (refused.length > 0) {
      this.logger.warn(`${file.fileName}: ${refused.length} payment(s) refused their step: ${refused[0].reason}`);
      await this.record(platformId, currency, {
        type: 'RecordRefusedEffects',
        platformId,
        sha256: file.sha256,
        refused,
        now,
      });
    }
    await this.record(platformId, currency, { type: 'MarkFileApplied', platformId, sha256: file.sha256, now });
  }

  /** One pass over every rail: what waits goes out, what arrived is taken. */
  async runOnce(): Promise<void> {
    for (const folder of await this.files.railFolders()) {
      const [uuid, currency] = folder.split('/');
      const platformId = `Platform:${uuid}`;
      try {
        await this.flush(platformId, currency);
        await this.processInbox(platformId, currency);
      } catch (error) {
        this.logger.error(`bank rail ${folder}: ${String(error)}`);
      }
    }
  }
}

/** The payment step an answer from the bank takes. */
export function stepFor(effect: RailEffect): PaymentStep | undefined {
  const quote = effect.ref.kind === 'quote';
  const bankReasonCode = effect.reasonCode ? { bankReasonCode: effect.reasonCode } : {};
  switch (effect.action) {
    case 'ACCEPT':
      return undefined;
    case 'BOOK':
      return { type: 'COMPLETE' };
    case 'REJECT':
      return quote
        ? {
            type: 'FAIL',
            status: 'FAILED',
            failureReason: 'OFFRAMP_FAILED',
            failureDetail: 'REJECTED_BY_BANK',
            ...bankReasonCode,
          }
        : { type: 'FAIL', status: 'REJECTED', failureDetail: 'REJECTED_BY_BANK', ...bankReasonCode };
    case 'RETURN':
      return {
        type: 'RETURN',
        status: effect.kind === 'CREDIT_TRANSFER' ? 'REFUNDED' : 'FAILED',
        ...(quote ? { failureReason: 'OFFRAMP_FAILED' as const } : {}),
        failureDetail: 'RETURNED_BY_RECEIVING_BANK',
        ...bankReasonCode,
      };
  }
}
