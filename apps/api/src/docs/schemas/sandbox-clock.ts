import { obj, type Schema } from './kit.js';

export const sandboxClockSchemas: Record<string, Schema> = {
  SandboxClock: obj(['now', 'offsetMs'], {
    now: { type: 'string', format: 'date-time' },
    offsetMs: { type: 'integer', description: 'How far the sandbox clock is ahead of real time.' },
    promotedJobs: { type: 'integer', description: 'After an advance: timers that became due.' },
  }),
};
