type Schema = Record<string, unknown>;

export const sandboxClockSchemas: Record<string, Schema> = {
  SandboxClock: {
    type: 'object',
    required: ['now', 'offsetMs'],
    properties: {
      now: { type: 'string', format: 'date-time' },
      offsetMs: { type: 'integer', description: 'How far the sandbox clock is ahead of real time.' },
      promotedJobs: { type: 'integer', description: 'After an advance: timers that became due.' },
    },
  },
};
