/**
 * Faults planted on purpose, each one a known bug, so that the simulator's tests can show it catches them
 * (test/simulation). Only those tests switch them on; the service never does, and every switch is off by default.
 */
export const plantedFaults = {
  /** The ledger credits one unit more than it debits (an unbalanced transfer). */
  unbalancedTransfer: false,
  /** A recorded idempotent response is forgotten when the key is claimed again, so the request runs twice. */
  dropIdempotencyRecord: false,
  /** A unique identity is not claimed before the resource that holds it is created. */
  skipUniquenessClaim: false,
  /** An agent's spend is judged without the spends reserved in flight. */
  skipAgentReservation: false,
  /** A CLOSED card may be made ACTIVE again. */
  reopenClosedCard: false,
  /** A projection applies each event twice. */
  applyProjectionTwice: false,
  /** A webhook attempt the receiver answered with a server error (5xx) counts as delivered, so it is not retried. */
  webhookErrorCountsAsDelivered: false,
};

export type PlantedFault = keyof typeof plantedFaults;
