import type { BankMessage } from '#domain/payments/rails/bank-messages.js';
import type { RailFile, RailInstruction } from '#domain/payments/rails/bank-rail-stream.js';
import type { BankRailConfig } from '#domain/payments/rails/bank-rails.js';

/** A file found in a rail's inbox folder. */
export interface InboxItem {
  name: string;
  sha256: string;
  content: string;
}

/** Why a file from the bank could not be read (malformed XML, a message of another kind, a bad amount...). */
export class BankFileUnreadable extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * The port between the bank rails and the outside: the bank's file formats (ISO 20022) and the exchange folders an
 * SFTP or EBICS client carries. Folders are named relative to the service's rails directory (`<platform>/<currency>`).
 */
export interface BankFiles {
  /** The credit transfer (pain.001) or direct debit (pain.008) initiation of one recorded file. */
  render(file: RailFile, instructions: RailInstruction[], rail: BankRailConfig, initiatingParty: string): string;
  /** A status report, notification or statement; throws BankFileUnreadable. */
  read(content: string, currency: string): BankMessage;
  /** Creates `outbox/` and `inbox/` of a rail; answers their absolute paths. */
  ensureFolders(folder: string): Promise<{ outbox: string; inbox: string }>;
  /** Written under a temporary name, synced, renamed; the same content again is a no-op. */
  writeOutbox(folder: string, name: string, content: string): Promise<void>;
  listInbox(folder: string): Promise<InboxItem[]>;
  /** Moves an inbox file into `inbox/processed/` or `inbox/quarantine/`. */
  archive(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<void>;
  /** Whether `inbox/<to>/<name>` exists (a file dropped again after it was archived). */
  isArchived(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<boolean>;
  /** Every rail folder that exists below the rails directory. */
  railFolders(): Promise<string[]>;
}
