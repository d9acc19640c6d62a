import type { Scenario } from '../scenario.js';
import { eventAppend } from './event-append.js';

export type { Scenario } from '../scenario.js';

/** Every registered scenario, in the order `npm run bench` runs them. A new scenario adds itself here. */
export const scenarios: Scenario[] = [eventAppend];
