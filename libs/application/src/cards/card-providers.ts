import { cardAuthorizationHandlers } from './card-authorizations.js';
import { CreateCardHandler, UpdateCardHandler } from './card-commands.js';
import { CardLocks } from './card-locks.js';
import { CardQueries } from './card-queries.js';

/** Command handlers of the cards area. */
export const cardHandlers = [CreateCardHandler, UpdateCardHandler, ...cardAuthorizationHandlers];

/** Injectable services of the cards area (exported to the HTTP edge). */
export const cardProviders = [CardLocks, CardQueries];
