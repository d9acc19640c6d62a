export * from './card-types.js';
export * from './card.js';
export * from './card-authorization.js';
export * from './card-funding.js';
export * from './card-issuer.js';
