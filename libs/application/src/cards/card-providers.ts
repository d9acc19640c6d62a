import { cardAuthorizationHandlers } from './card-authorizations.js';
import { CardLocks, CreateCardHandler, UpdateCardHandler } from './card-commands.js';
import { CardQueries } from './card-queries.js';
import { CardBacktests } from './card-backtest.js';
import { CardProcessorConfig } from './card-processor-config.js';
import { CardProcessorMessages } from './card-processor.js';

/** Command handlers of the cards area. */
export const cardHandlers = [CreateCardHandler, UpdateCardHandler, ...cardAuthorizationHandlers];

/** Injectable services of the cards area (exported to the HTTP edge). */
export const cardProviders = [CardLocks, CardQueries, CardBacktests, CardProcessorConfig, CardProcessorMessages];
