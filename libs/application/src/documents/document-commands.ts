import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { StagedBlob } from '#blob-store/blob-store.js';
import { documentDecider, type DocumentDetails, type DocumentFile } from '#domain/documents/document.js';
import type { DocumentMediaType } from '#domain/documents/document-types.js';
import { DomainError, notFound } from '#domain/errors.js';
import { publicId, streams } from '#domain/primitives.js';
import { CommandContext } from '../command-context.js';
import { loadOwnBeneficialOwner } from '../beneficial-owners/beneficial-owner-commands.js';
import { CommandRunner } from '../command-runner.js';
import { loadOwnCustomer } from '../customers/customer-commands.js';
import type { Actor } from '../tokens.js';
import { DocumentFiles } from './document-files.js';
import { effectId } from '../idempotency/effect-ids.js';

/** A received file: staged in the blob store (not yet readable), with what the upload said about it. */
export interface ReceivedFile {
  blob: StagedBlob;
  fileName: string;
  mediaType: DocumentMediaType;
}

export class UploadDocumentCommand {
  constructor(
    readonly documentHolder: string,
    readonly details: DocumentDetails,
    readonly file: ReceivedFile,
    readonly actor: Actor,
  ) {}
}

export class ReplaceDocumentCommand {
  constructor(
    readonly documentId: string,
    readonly details: DocumentDetails,
    readonly file: ReceivedFile,
    readonly actor: Actor,
  ) {}
}

export class DeleteDocumentCommand {
  constructor(
    readonly documentId: string,
    readonly actor: Actor,
  ) {}
}

const documentFile = (file: ReceivedFile, contentReference: string): DocumentFile => ({
  fileName: file.fileName,
  mediaType: file.mediaType,
  fileSize: file.blob.size,
  sha256: file.blob.sha256,
  contentReference,
});

/**
 * Records the document after its file is referenced and published. A refusal by the decider
 * gives the new reference back; an append whose outcome is unknown keeps it (and the file).
 */
async function recordWithFile(
  files: DocumentFiles,
  file: ReceivedFile,
  documentId: string,
  actor: Actor,
  now: string,
  record: (documentFile: DocumentFile) => Promise<void>,
): Promise<void> {
  const reference = await files.adopt(file.blob, documentId, actor, now);
  try {
    await record(documentFile(file, reference));
  } catch (error) {
    if (error instanceof DomainError) {
      await files.release({ sha256: file.blob.sha256, contentReference: reference }, documentId, actor, now);
    }
    throw error;
  }
}

/** Uploads a document of one of the platform's customers (not deleted). */
/** A document's holder: a customer of the platform (not deleted) or one of its beneficial owners; 404 otherwise. */
async function loadHolder(runner: CommandRunner, holder: string, actor: Actor): Promise<void> {
  if (holder.startsWith('BeneficialOwner:')) {
    await loadOwnBeneficialOwner(runner, holder, actor.platformId);
    return;
  }
  const customer = await loadOwnCustomer(runner, holder, actor);
  if (customer.isDeleted) throw notFound('CUSTOMER', holder);
}

@CommandHandler(UploadDocumentCommand)
export class UploadDocumentHandler implements ICommandHandler<UploadDocumentCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly files: DocumentFiles,
  ) {}

  async execute({ documentHolder, details, file, actor }: UploadDocumentCommand) {
    await loadHolder(this.ctx.runner, documentHolder, actor);
    const id = publicId('Document', effectId(actor, this.ctx.ids));
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    await recordWithFile(this.files, file, id, actor, now, async (documentFile) => {
      await this.ctx.runner.run(
        streams.document(id),
        documentDecider,
        {
          type: 'UploadDocument',
          id,
          platformId: actor.platformId,
          documentHolder,
          details,
          file: documentFile,
          now,
        },
        { metadata: { ...actor } },
      );
    });
    return id;
  }
}

/** Replaces a document's file and details; the file it had is released. */
@CommandHandler(ReplaceDocumentCommand)
export class ReplaceDocumentHandler implements ICommandHandler<ReplaceDocumentCommand, void> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly files: DocumentFiles,
  ) {}

  async execute({ documentId, details, file, actor }: ReplaceDocumentCommand) {
    const { state } = await this.ctx.runner.load(streams.document(documentId), documentDecider);
    // Checked first so that no reference is taken for a document this platform cannot see.
    if (!state.document || state.deleted || state.document.platformId !== actor.platformId) {
      throw notFound('DOCUMENT', documentId);
    }
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    await recordWithFile(this.files, file, documentId, actor, now, async (documentFile) => {
      const { events } = await this.ctx.runner.run(
        streams.document(documentId),
        documentDecider,
        { type: 'ReplaceDocument', id: documentId, platformId: actor.platformId, details, file: documentFile, now },
        { metadata: { ...actor } },
      );
      for (const e of events) {
        if (e.type === 'DocumentReplaced') await this.files.release(e.data.replaced, documentId, actor, now);
      }
    });
  }
}

/** Deletes a document; its file is erased unless another document has the same bytes. */
@CommandHandler(DeleteDocumentCommand)
export class DeleteDocumentHandler implements ICommandHandler<DeleteDocumentCommand, void> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly files: DocumentFiles,
  ) {}

  async execute({ documentId, actor }: DeleteDocumentCommand) {
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const { events } = await this.ctx.runner.run(
      streams.document(documentId),
      documentDecider,
      { type: 'DeleteDocument', id: documentId, platformId: actor.platformId, now },
      { metadata: { ...actor } },
    );
    for (const e of events) {
      if (e.type === 'DocumentDeleted') await this.files.release(e.data.released, documentId, actor, now);
    }
  }
}
