import { join, resolve } from 'node:path';
import { CommandBus } from '@nestjs/cqrs';
import { CommandRunner } from '#application/command-runner.js';
import { PlatformConfigQueries, UpdatePlatformConfigCommand } from '#application/platforms/platform-config.js';
import type { Actor } from '#application/tokens.js';
import { DomainError, notFound } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import {
  railFolder,
  railFor,
  validateBankRails,
  type BankRailAccount,
  type BankRailConfig,
} from '#domain/payments/rails/bank-rails.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { payInOnce, runBankOnce, writeStatementOnce } from '#rails/bank-simulator-folders.js';
import { UpdateConfigDto } from '../platforms/platform-config.dto.js';
import {
  asRequest,
  platformActor,
  platformOption,
  text,
  UsageError,
  type CliCommand,
  type CliContext,
  type OptionSpecs,
} from './command.js';
import { fields, table } from './format.js';

/** Options that each take a text value. */
const strings = (...names: string[]): OptionSpecs =>
  Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));

/** A rail as GET /config shows it: its configuration and the folders its files are exchanged through. */
export type RailView = BankRailConfig & { outboxFolder: string; inboxFolder: string };

/** The platform's rails as configured (its stream: a change just made counts). */
export async function configuredRails(ctx: CliContext, platformId: string): Promise<BankRailConfig[]> {
  const { state } = await ctx.app.get(CommandRunner).load(streams.platform(platformId), platformDecider);
  return state.rails ?? [];
}

async function shownRails(ctx: CliContext, platformId: string): Promise<RailView[]> {
  const config = await ctx.app.get(PlatformConfigQueries).config(platformId, false);
  return (config.rails as RailView[] | undefined) ?? [];
}

/** The `--currency` a rail command names. */
export function currencyOf(ctx: CliContext, command: string): string {
  const currency = text(ctx, 'currency');
  if (!currency) throw new UsageError(`${command} needs --currency CODE`);
  return currency;
}

/**
 * Sets the whole list, as PATCH /config does: the request's checks (INVALID_INPUT with field errors), the rails'
 * own (validateBankRails), then the same application command (which refuses rails on sandbox platforms).
 */
async function setRails(ctx: CliContext, actor: Actor, rails: BankRailConfig[]): Promise<void> {
  await asRequest(UpdateConfigDto, { rails }, 'body');
  validateBankRails(rails);
  await ctx.app.get(CommandBus).execute(new UpdatePlatformConfigCommand({ rails }, actor));
}

/** The account the options give: IBAN (with BIC) or account and routing numbers, and the holder's name. */
function accountOf(ctx: CliContext): BankRailAccount {
  const name = text(ctx, 'name');
  if (name === undefined) throw new UsageError('rails:set needs --name "Account holder"');
  if (text(ctx, 'iban') === undefined && text(ctx, 'account-number') === undefined)
    throw new UsageError('rails:set needs --iban IBAN or --account-number A --routing-number R');
  const account: BankRailAccount = { name };
  const options = { iban: 'iban', bic: 'bic', accountNumber: 'account-number', routingNumber: 'routing-number' };
  for (const [key, option] of Object.entries(options)) {
    const value = text(ctx, option);
    if (value !== undefined) account[key as keyof typeof options] = value;
  }
  return account;
}

const accountText = (a: BankRailAccount) =>
  a.iban ? `${a.iban}${a.bic ? ` ${a.bic}` : ''}` : `${a.accountNumber ?? '-'} / ${a.routingNumber ?? '-'}`;

const railText = (rail: RailView) => () =>
  fields([
    ['currency', rail.currency],
    ['type', rail.type],
    ['holder', rail.account.name],
    ...(rail.account.iban
      ? ([
          ['iban', rail.account.iban],
          ['bic', rail.account.bic],
        ] as [string, string | undefined][])
      : ([
          ['account number', rail.account.accountNumber],
          ['routing number', rail.account.routingNumber],
        ] as [string, string | undefined][])),
    ['creditor scheme id', rail.creditorSchemeId],
    ['outbox', rail.outboxFolder],
    ['inbox', rail.inboxFolder],
  ]);

const railsText = (rails: RailView[]) => () =>
  table(
    ['currency', 'holder', 'account', 'creditor scheme id', 'outbox', 'inbox'],
    rails.map((r) => [
      r.currency,
      r.account.name,
      accountText(r.account),
      r.creditorSchemeId,
      r.outboxFolder,
      r.inboxFolder,
    ]),
  );

/** A production platform's bank rails (PATCH /config `rails`), one currency at a time. */
export const railCommands: CliCommand[] = [
  {
    name: 'rails:set',
    synopsis:
      '--platform Platform:<uuid> --currency CODE (--iban IBAN [--bic BIC] | --account-number A --routing-number R)\n' +
      '      --name "Account holder" [--creditor-scheme-id ID]',
    description:
      'adds or replaces the platform’s bank rail for a currency, keeping its other rails, as PATCH /config with the\n' +
      'whole rails list does (refused on sandbox platforms and for malformed accounts, INVALID_INPUT); prints the\n' +
      'rail with the outbox and inbox folders its ISO 20022 files are exchanged through',
    options: {
      ...platformOption,
      ...strings('currency', 'iban', 'bic', 'account-number', 'routing-number', 'name', 'creditor-scheme-id'),
    },
    async run(ctx) {
      const actor = await platformActor(ctx, 'rails:set');
      const currency = currencyOf(ctx, 'rails:set');
      const creditorSchemeId = text(ctx, 'creditor-scheme-id');
      const rail: BankRailConfig = {
        currency,
        type: 'ISO20022_FILES',
        account: accountOf(ctx),
        ...(creditorSchemeId !== undefined ? { creditorSchemeId } : {}),
      };
      const rails = await configuredRails(ctx, actor.platformId);
      const at = rails.findIndex((r) => r.currency === currency);
      await setRails(ctx, actor, at < 0 ? [...rails, rail] : rails.map((r, i) => (i === at ? rail : r)));
      const shown = (await shownRails(ctx, actor.platformId)).find((r) => r.currency === currency)!;
      return { data: shown, text: railText(shown) };
    },
  },
  {
    name: 'rails:remove',
    synopsis: '--platform Platform:<uuid> --currency CODE',
    description:
      'removes the platform’s bank rail for a currency (BANK_RAIL_NOT_FOUND when it has none); prints the rails\n' +
      'left. Its folders and the files in them stay',
    options: { ...platformOption, ...strings('currency') },
    async run(ctx) {
      const actor = await platformActor(ctx, 'rails:remove');
      const currency = currencyOf(ctx, 'rails:remove');
      const rails = await configuredRails(ctx, actor.platformId);
      if (!rails.some((r) => r.currency === currency)) throw notFound('BANK_RAIL', currency);
      await setRails(
        ctx,
        actor,
        rails.filter((r) => r.currency !== currency),
      );
      const left = await shownRails(ctx, actor.platformId);
      return { data: left, text: railsText(left) };
    },
  },
  {
    name: 'rails:list',
    synopsis: '--platform Platform:<uuid>',
    description: 'the platform’s bank rails with their folders (GET /config `rails`)',
    options: platformOption,
    async run(ctx) {
      const actor = await platformActor(ctx, 'rails:list');
      const rails = await shownRails(ctx, actor.platformId);
      return { data: rails, text: railsText(rails) };
    },
  },
];

/** The rail's folders and the bank's state file: `--state`, or `bank-state.json` beside the rail's outbox and inbox. */
async function bankSide(ctx: CliContext, command: string) {
  const actor = await platformActor(ctx, command);
  const currency = currencyOf(ctx, command);
  const rail = railFor(await configuredRails(ctx, actor.platformId), currency);
  if (!rail)
    throw new DomainError(
      'invalid',
      'UNSUPPORTED_PAYMENT_RAIL',
      `no bank rail moves ${currency}: set one with rails:set`,
      {
        errors: [
          { field: 'currency', constraint: 'UNSUPPORTED_PAYMENT_RAIL', message: `no bank rail for ${currency}` },
        ],
      },
    );
  const folder = join(ctx.config.rails.dir, railFolder(actor.platformId, currency));
  const state = text(ctx, 'state');
  return {
    platformId: actor.platformId,
    rail,
    outboxFolder: join(folder, 'outbox'),
    inboxFolder: join(folder, 'inbox'),
    stateFile: state !== undefined ? resolve(state) : join(folder, 'bank-state.json'),
  };
}

/** `--now` (an ISO 8601 time), or the current time. */
function nowOf(ctx: CliContext): Date {
  const value = text(ctx, 'now');
  if (value === undefined) return new Date();
  const now = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(now.getTime()))
    throw new UsageError(`--now ${value} is not an ISO 8601 time such as 2026-03-09T12:00:00Z`);
  return now;
}

const names = (list: string[]) => (list.length ? list.map((n) => `\n  ${n}`).join('') : ' none');

const bankOptions: OptionSpecs = { ...platformOption, ...strings('currency', 'state') };

/** A payer that a pay-in comes from when none is named: an IBAN for IBAN rails, US account numbers otherwise. */
function payerOf(ctx: CliContext, rail: BankRailConfig) {
  const name = text(ctx, 'payer-name') ?? 'Charles Babbage';
  return rail.account.iban
    ? { name, iban: 'DE89370400440532013000' }
    : { name, accountNumber: '4400012345', routingNumber: '021000021' };
}

function amountOf(ctx: CliContext, currency: string) {
  const value = text(ctx, 'amount');
  if (value === undefined || !/^[1-9][0-9]{0,17}$/.test(value))
    throw new UsageError('bank:pay-in needs --amount N, a positive whole number of minor units (cents)');
  return { minor: BigInt(value), currency };
}

/**
 * The bank's side of a rail's folders, played by the bank simulator (libs/rails): a separate party from the service,
 * touching only the folders; a running service's worker picks up what it writes.
 */
export const bankCommands: CliCommand[] = [
  {
    name: 'bank:simulate',
    synopsis: '--platform Platform:<uuid> --currency CODE [--state FILE] [--now ISO]',
    description:
      'plays the bank once on the rail’s folders: takes the files in the outbox (into outbox/taken/), books them by\n' +
      'the simulator’s outcome table and writes pain.002 and camt.054 answers into the inbox. The bank’s state is\n' +
      'kept in FILE (default bank-state.json in the rail’s folder)',
    options: { ...bankOptions, ...strings('now') },
    async run(ctx) {
      const side = await bankSide(ctx, 'bank:simulate');
      const { outboxFolder, inboxFolder, stateFile } = side;
      const ran = await runBankOnce({ outboxDir: outboxFolder, inboxDir: inboxFolder, stateFile, now: nowOf(ctx) });
      const data = { currency: side.rail.currency, ...ran, outboxFolder, inboxFolder, stateFile };
      return {
        data,
        text: () => `took from ${outboxFolder}:${names(ran.taken)}\nwrote into ${inboxFolder}:${names(ran.written)}`,
      };
    },
  },
  {
    name: 'bank:statement',
    synopsis: '--platform Platform:<uuid> --currency CODE --date YYYY-MM-DD [--state FILE]',
    description: 'writes the day’s camt.053 statement of the rail’s bank account into the inbox',
    options: { ...bankOptions, ...strings('date') },
    async run(ctx) {
      const side = await bankSide(ctx, 'bank:statement');
      const date = text(ctx, 'date');
      if (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date))
        throw new UsageError('bank:statement needs --date YYYY-MM-DD');
      const { inboxFolder, stateFile } = side;
      const { written } = await writeStatementOnce({ inboxDir: inboxFolder, stateFile, date });
      const data = { currency: side.rail.currency, date, written, inboxFolder, stateFile };
      return { data, text: () => `wrote into ${inboxFolder}:${names(written)}` };
    },
  },
  {
    name: 'bank:pay-in',
    synopsis:
      '--platform Platform:<uuid> --currency CODE --amount N [--remittance TEXT] [--payer-name NAME] [--state FILE]\n' +
      '      [--now ISO]',
    description:
      'a payer’s credit transfer into the rail’s bank account (amount in minor units): the bank books it and writes\n' +
      'its camt.054 into the inbox. A remittance text naming an account’s funding reference (FUND-...) credits that\n' +
      'account; one naming nothing waits in suspense (GET /bank-rails/{currency}/exceptions)',
    options: { ...bankOptions, ...strings('amount', 'remittance', 'payer-name', 'now') },
    async run(ctx) {
      const side = await bankSide(ctx, 'bank:pay-in');
      const { rail, inboxFolder, stateFile } = side;
      const amount = amountOf(ctx, rail.currency);
      const remittanceInformation = text(ctx, 'remittance');
      if (remittanceInformation !== undefined && !/^[^<>&"]{1,140}$/.test(remittanceInformation))
        throw new UsageError('--remittance: 1 to 140 characters without <, >, & or "');
      const { written } = await payInOnce({
        inboxDir: inboxFolder,
        stateFile,
        account: { ...rail.account },
        amount,
        remittanceInformation,
        debtor: payerOf(ctx, rail),
        now: nowOf(ctx),
      });
      const data = {
        currency: rail.currency,
        amount: amount.minor.toString(),
        remittanceInformation,
        written,
        inboxFolder,
        stateFile,
      };
      return { data, text: () => `wrote into ${inboxFolder}:${names(written)}` };
    },
  },
];
