/** OpenAPI prose of the documents routes (the descriptions the controllers' decorators name). */

export const FILE_RULES =
  'The file is PDF, JPEG or PNG, recognised by its first bytes (a declared part type other than the ' +
  'content’s, or other content, is 415); larger than the limit (`DOCUMENT_MAX_BYTES`, 25 MiB by default) ' +
  'is 413. It is stored by its SHA-256, which the document shows with its size and media type.';

/** Descriptions of the routes of documents.controller.ts, by handler. */
export const DOCUMENTS_TEXT = {
  upload:
    'multipart/form-data: the file in the `file` part, the other fields as text parts. The ' +
    `documentHolder is a customer (not deleted) or a beneficial owner of the platform (404 otherwise). ${FILE_RULES}`,
  uploadFile: 'The document file: PDF, JPEG or PNG.',
  list: 'Newest first; deleted documents are not listed.',
  content:
    'An addition to the public API, which has no way to read a file back. The bytes as uploaded, ' +
    'with `Content-Type` the document’s mediaType, `Content-Disposition: attachment` and its fileName, ' +
    '`ETag` the SHA-256 in hex and `Repr-Digest` (RFC 9530) the SHA-256 in base64. The file is checked ' +
    'against its hash while it is sent: stored bytes that no longer match end the connection before ' +
    'the last byte, so a client never completes a damaged download.',
  contentResponse200: 'The file',
  replace:
    'multipart/form-data with a new file and the details again (those left out are removed); the ' +
    `holder and createdAt stay. The file it had is erased unless another document has the same bytes. ${FILE_RULES}`,
  replaceFile: 'The new document file: PDF, JPEG or PNG.',
  delete: 'Its file is erased unless another document has the same bytes. This cannot be undone.',
};
