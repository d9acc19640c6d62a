import { IsIn, IsOptional, Matches } from 'class-validator';
import {
  DOCUMENT_SIDES,
  DOCUMENT_TYPES,
  type DocumentSide,
  type DocumentType,
} from '#domain/documents/document-types.js';
import { OptionalFilledText } from '../http/fields.js';
import { BENEFICIAL_OWNER_ID, COUNTRY, CUSTOMER_ID } from '../http/formats.js';
import { PageParams } from '../http/list-params.js';

const documentTypeMessage = { message: `documentType must be one of ${DOCUMENT_TYPES.join(', ')}` };
/** A customer or a beneficial owner of the platform, as in the public API. */
const HOLDER = new RegExp(`(${CUSTOMER_ID.source})|(${BENEFICIAL_OWNER_ID.source})`);
const holderMessage = {
  message: 'documentHolder must be a customer (Customer:<uuid>) or beneficial owner (BeneficialOwner:<uuid>) id',
};

/** The text fields of a document upload or replacement (multipart/form-data, beside the file part). */
export class DocumentDetailsDto {
  @IsIn(DOCUMENT_TYPES, documentTypeMessage) documentType!: DocumentType;
  @IsOptional() @IsIn(DOCUMENT_SIDES, { message: 'side must be FRONT or BACK' }) side?: DocumentSide;
  @Matches(COUNTRY, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country!: string;
  @OptionalFilledText(100) documentNumber?: string;
  @OptionalFilledText(200) issuingAuthority?: string;
}

export class UploadDocumentDto extends DocumentDetailsDto {
  @Matches(HOLDER, holderMessage) documentHolder!: string;
}

/** A replacement states file and details again; the holder stays. */
export class ReplaceDocumentDto extends DocumentDetailsDto {}

export class ListDocumentsQuery extends PageParams {
  @IsOptional() @Matches(HOLDER, holderMessage) documentHolder?: string;
  @IsOptional() @IsIn(DOCUMENT_TYPES, documentTypeMessage) documentType?: DocumentType;
}
