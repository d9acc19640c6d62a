export * from './wallet-ids.js';
export * from './payload.js';
export * from './wallet-auth-state.js';
export * from './signed-retry.js';
export * from './wallet-auth.js';
export * from './wallet-views.js';
