import { customerProjection } from './customer-projection.js';
import { internalAccountProjection } from './internal-account-projection.js';
import { platformProjection } from './platform-projection.js';

export * from './collections.js';
export * from './internal-account-docs.js';
export { customerProjection, internalAccountProjection, platformProjection };

/** Every projection the service runs, in the order they are registered. */
export const allProjections = [platformProjection, customerProjection, internalAccountProjection];
