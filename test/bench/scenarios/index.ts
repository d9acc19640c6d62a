import type { Scenario } from '../scenario.js';
import { eventAppend } from './event-append.js';
import { signedRetry } from './signed-retry.js';
import { cardsFreezeUnfreeze } from './cards.js';
import { cardBacktest } from './card-backtest.js';
import { webhookDelivery, webhookDeliveryEmbedded, webhookDeliveryTopology } from './webhooks.js';
import { quotes } from './quotes.js';
import { replay } from './replay.js';
import { coldStart } from './cold-start.js';
import { lists } from './lists.js';
import { topology } from './topology.js';
import { rails } from './rails.js';
import { cardAuthorizations } from './card-authorizations.js';
import { bulkImports } from './bulk-imports.js';

export type { Scenario } from '../scenario.js';

/** Every registered scenario, in the order `npm run bench` runs them. A new scenario adds itself here. */
export const scenarios: Scenario[] = [
  eventAppend,
  signedRetry,
  cardsFreezeUnfreeze,
  cardBacktest,
  webhookDelivery,
  webhookDeliveryEmbedded,
  webhookDeliveryTopology,
  quotes,
  replay,
  coldStart,
  lists,
  topology,
  rails,
  cardAuthorizations,
  bulkImports,
];
