/** Injection tokens for the ports and shared services. */
export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_MODELS = Symbol('READ_MODELS');
export const JOB_QUEUE = Symbol('JOB_QUEUE');
export const BLOB_STORE = Symbol('BLOB_STORE');
export const CLOCK = Symbol('CLOCK');
export const IDS = Symbol('IDS');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const PROJECTIONS = Symbol('PROJECTIONS');
/** The SecretBox sealing secrets kept in the event log (libs/crypto/src/secret-box.ts). */
export const SECRET_BOX = Symbol('SECRET_BOX');
/** Delivery attempts made now (libs/application/src/webhooks/webhook-attempts.ts). */
export const WEBHOOK_ATTEMPTS = Symbol('WEBHOOK_ATTEMPTS');
/** The platforms' decision endpoints (`PlatformDecisions`). */
export const PLATFORM_DECISIONS = Symbol('PLATFORM_DECISIONS');

/** Who is acting: the authenticated platform and the credential used. */
export interface Actor {
  platformId: string;
  /** e.g. `ApiToken:<uuid>`, `cli`, `system`. */
  actor: string;
  correlationId: string;
}
