/** Whom the workload's requests run as: the platform's API token, with a correlation id naming what they are for. */
export const actorOf = (platformId: string, correlationId: string) => ({
  platformId,
  actor: 'ApiToken:simulation',
  correlationId,
});
