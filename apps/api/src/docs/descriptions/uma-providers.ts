/** OpenAPI prose of the uma-providers routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of uma-providers.controller.ts, by handler. */
export const UMA_PROVIDERS_TEXT = {
  list:
    'Sorted by name, descending by default. Blocked providers (allowListStatus false) are ' +
    'included unless hasBlockedProviders=false.',
};
