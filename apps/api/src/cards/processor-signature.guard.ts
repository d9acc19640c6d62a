import { CardProcessorConfig } from '#application/cards/card-processor-config.js';
import { SignedCallerActor, SignedCallerGuard } from '../http/signed-callers.js';

/** The header naming the platform whose card processor sends the message. */
export const PROCESSOR_PLATFORM_HEADER = 'x-processor-platform';
/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`. */
export const PROCESSOR_SIGNATURE_HEADER = 'x-processor-signature';

/**
 * A card processor's messages are authenticated by an HMAC of the raw body with the platform's card processor
 * secret, not by platform credentials: a missing, malformed, stale or wrong signature, an unknown platform and one
 * without a secret all answer 401 before anything is read or recorded. The message then acts for the platform as
 * `system:card-processor`.
 */
export const ProcessorSignatureGuard = SignedCallerGuard(CardProcessorConfig, (config) => ({
  platformHeader: PROCESSOR_PLATFORM_HEADER,
  signatureHeader: PROCESSOR_SIGNATURE_HEADER,
  code: 'PROCESSOR_SIGNATURE_INVALID',
  actor: 'system:card-processor',
  verify: (platformId, signature, rawBody) => config.verify(platformId, signature, rawBody),
}));

/** The platform the processor's message is for, as the guard authenticated it. */
export const ProcessorActor = SignedCallerActor;
