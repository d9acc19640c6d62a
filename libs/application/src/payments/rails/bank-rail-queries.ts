import { Injectable } from '@nestjs/common';
import { pageOf, type Page } from '#domain/audit/history.js';
import { notFound } from '#domain/errors.js';
import { compact, requireCurrencyCode, streams } from '#domain/primitives.js';
import {
  bankRailDecider,
  type InboxFile,
  type RailException,
  type Reconciliation,
} from '#domain/payments/rails/bank-rail-stream.js';
import { railFor } from '#domain/payments/rails/bank-rails.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { CommandRunner } from '../../command-runner.js';

type PageRequest = { limit?: number; cursor?: string };

/** What the bank sent, as the operator reviews it: each file with its status, and each day's reconciliation. */
export interface InboxFileView {
  fileName: string;
  sha256: string;
  messageType?: string;
  messageId?: string;
  status: 'QUARANTINED' | 'RECEIVED' | 'APPLIED';
  quarantineReason?: string;
  receivedAt: string;
  appliedAt?: string;
  effects: { endToEndId: string; action: string; reasonCode?: string }[];
  problems: { entry: string; reason: string }[];
}

function inboxView(file: InboxFile): InboxFileView {
  return {
    fileName: file.fileName,
    sha256: file.sha256,
    ...(file.messageType ? { messageType: file.messageType } : {}),
    ...(file.messageId ? { messageId: file.messageId } : {}),
    status: file.quarantineReason ? 'QUARANTINED' : file.appliedAt ? 'APPLIED' : 'RECEIVED',
    ...(file.quarantineReason ? { quarantineReason: file.quarantineReason } : {}),
    receivedAt: file.receivedAt,
    ...(file.appliedAt ? { appliedAt: file.appliedAt } : {}),
    effects: file.effects.map((e) => ({
      endToEndId: e.endToEndId,
      action: e.action,
      ...(e.reasonCode ? { reasonCode: e.reasonCode } : {}),
    })),
    problems: file.problems,
  };
}

/** A page of `oldestFirst` shown newest first (the cursor numbers them in that order). */
function page<T>(oldestFirst: T[], request: PageRequest): Page<T> {
  const numbered = [...oldestFirst].reverse().map((item, revision) => ({ item, revision }));
  const result = pageOf(numbered, request);
  return { ...result, data: result.data.map((n) => n.item) };
}

/** The operator's reads of a production platform's bank rail in one currency. */
/** The platform's rail in `currency` as its stream folds it; 404 BANK_RAIL_NOT_FOUND when it has none there. */
export async function railState(runner: CommandRunner, platformId: string, currency: string) {
  requireCurrencyCode(currency, 'currency');
  const { state: platform } = await runner.load(streams.platform(platformId), platformDecider);
  if (!railFor(platform.rails, currency)) throw notFound('BANK_RAIL', currency);
  return (await runner.load(streams.bankRail(platformId, currency), bankRailDecider)).state;
}

@Injectable()
export class BankRailQueries {
  constructor(private readonly runner: CommandRunner) {}

  private state(platformId: string, currency: string) {
    return railState(this.runner, platformId, currency);
  }

  /** Every file the bank delivered (and every copy or unreadable file quarantined), newest first. */
  async inbox(platformId: string, currency: string, request: PageRequest): Promise<Page<InboxFileView>> {
    const state = await this.state(platformId, currency);
    const taken = [...state.inbox.values()].filter((f) => !f.quarantineReason);
    const all = [...taken, ...state.quarantine].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
    return page(all.map(inboxView), request);
  }

  /** Credits that named no payment and no funding reference: OPEN in suspense, or ASSIGNED since; newest first. */
  async exceptions(platformId: string, currency: string, request: PageRequest): Promise<Page<Record<string, unknown>>> {
    const state = await this.state(platformId, currency);
    return page([...state.exceptions.values()].map(exceptionView), request);
  }

  /** Each statement day's reconciliation, newest day first. */
  async reconciliations(platformId: string, currency: string, request: PageRequest): Promise<Page<Reconciliation>> {
    const state = await this.state(platformId, currency);
    const days = [...state.reconciliations.values()].sort((a, b) => a.date.localeCompare(b.date));
    return page(days, request);
  }
}

/** A credit in suspense (or assigned since), as the exceptions list shows it. */
export function exceptionView(exception: RailException): Record<string, unknown> {
  const { credit } = exception;
  return compact({
    id: credit.id,
    status: exception.status,
    amount: credit.amount,
    currency: credit.currency,
    bookingDate: credit.bookingDate,
    entryReference: credit.entryReference,
    remittanceInformation: credit.remittanceInformation,
    reason: exception.reason,
    fileName: exception.fileName,
    receivedAt: exception.receivedAt,
    assignedTo: exception.assignedTo,
    assignedAt: exception.assignedAt,
    returnedAt: exception.returnedAt,
  });
}
