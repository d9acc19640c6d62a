/**
 * What a verification document can be (the public API's DocumentType), which side of a two-sided
 * document an upload is, and which files are accepted.
 */
export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

export const DOCUMENT_MEDIA_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];

/** The leading bytes that identify each accepted format. */
const SIGNATURES: [DocumentMediaType, number[]][] = [
  ['application/pdf', [...Buffer.from('%PDF-')]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
];

/** How many leading bytes `documentMediaType` needs to see. */
export const SIGNATURE_BYTES = 8;

/** Declared types that say nothing about the format: the content decides. */
const UNDECLARED = new Set(['', 'application/octet-stream']);

export type MediaTypeDecision = { mediaType: DocumentMediaType } | { refused: string };

/**
 * The media type of an uploaded file, decided by its leading bytes: a PDF, JPEG or PNG signature.
 * A declared type (the part's Content-Type) must agree with the content, or be absent or
 * `application/octet-stream`; anything else is refused with the reason.
 */
export function documentMediaType(declared: string | undefined, head: Uint8Array): MediaTypeDecision {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  const accepted = DOCUMENT_MEDIA_TYPES.join(', ');
  if (!UNDECLARED.has(type) && !(DOCUMENT_MEDIA_TYPES as readonly string[]).includes(type)) {
    return { refused: `files of type ${type} are not accepted; send ${accepted}` };
  }
  const found = SIGNATURES.find(([, signature]) => signature.every((byte, i) => head[i] === byte))?.[0];
  if (!found) return { refused: `the content is not ${UNDECLARED.has(type) ? 'one of ' + accepted : type}` };
  if (!UNDECLARED.has(type) && type !== found) {
    return { refused: `the file was sent as ${type} but its content is ${found}` };
  }
  return { mediaType: found };
}
