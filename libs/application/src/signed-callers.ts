import { verifyProcessorSignature } from '#domain/cards/card-processor.js';
import { isPublicId } from '#domain/primitives.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { PlatformClocks } from './command-context.js';

/** What the check of a signed caller's request answers: the platform it acts for, or why it is refused. */
export type SignedCallVerdict = { valid: true; platformId: string } | { valid: false; reason: string };

/** One kind of a platform's signed callers (its card processor, its KYC provider) and where its secret is kept. */
export interface SignedCaller {
  /** The reason a request gets when its platform header names no platform with a secret. */
  unknownPlatform: string;
  /** The reason a request without a body gets. */
  noBody: string;
  /** The signature header's name in reasons (`X-Processor-Signature` unless set). */
  headerName?: string;
  /** The platform's sealed secret; undefined while it has none. */
  sealedSecret(platformId: string): Promise<string | undefined>;
  /** The context the secret is sealed under. */
  secretContext(platformId: string): string;
  box: SecretBox;
  clocks: PlatformClocks;
}

/**
 * Whether a request for `platformId` carries a valid signature of its raw body with the platform's secret, within
 * five minutes of the platform's clock. An unknown platform and one without a secret fail like a bad signature.
 */
export async function verifySignedCall(
  caller: SignedCaller,
  platformId: string | undefined,
  header: string | undefined,
  rawBody: Buffer | undefined,
): Promise<SignedCallVerdict> {
  const unknown = { valid: false as const, reason: caller.unknownPlatform };
  if (!platformId || !isPublicId('Platform', platformId)) return unknown;
  const sealedSecret = await caller.sealedSecret(platformId);
  if (!sealedSecret) return unknown;
  if (!rawBody) return { valid: false, reason: caller.noBody };
  const secret = caller.box.open(sealedSecret, caller.secretContext(platformId)).toString('utf8');
  const nowSeconds = Math.floor((await caller.clocks.now(platformId)).getTime() / 1000);
  const { headerName } = caller;
  const result = verifyProcessorSignature({ header, secret, rawBody, nowSeconds, ...(headerName && { headerName }) });
  return result.valid ? { valid: true, platformId } : result;
}
