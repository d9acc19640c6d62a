/** OpenAPI prose of the discoveries routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of discoveries.controller.ts, by handler. */
export const DISCOVERIES_TEXT = {
  list:
    'The banks and payment providers that can receive in a corridor, filtered by country and/or currency ' +
    '(neither: every corridor; an unknown corridor: an empty list). Give an entry’s bankName as ' +
    '`bankName` when creating an external account. Not paginated.',
};
