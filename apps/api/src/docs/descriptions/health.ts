/** OpenAPI prose of the health probes (the descriptions health.controller.ts names). */

/** Descriptions of the routes of health.controller.ts, by handler. */
export const HEALTH_TEXT = {
  live:
    'Liveness: 200 while the process answers HTTP. A probe that fails means the process should be restarted; ' +
    'nothing it depends on is checked here.',
  ready:
    'Readiness: 200 when the event store answers (its head position), the read-model store answers (every ' +
    'projection’s checkpoint), the job queue answers, and no projection is further behind the log’s head than ' +
    '`READY_MAX_PROJECTION_LAG`; 503 with the failing checks otherwise (each store is given `READY_TIMEOUT_MS`). ' +
    'It recovers by itself once the cause is gone. The same probes, and `/metrics`, are served on `METRICS_PORT`.',
};
