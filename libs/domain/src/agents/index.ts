export * from './agent-types.js';
export * from './agent-policy.js';
export * from './agent.js';
export * from './agent-views.js';
export * from './agent-claims.js';
