import { afterAll, expect } from '@jest/globals';
import { webhookFindings } from './webhook-findings.js';

// Runs after the file's tests; a failure here fails the file without skipping its own afterAll clean-up.
afterAll(() => {
  expect({ webhooksNotInTheDocument: [...new Set(webhookFindings)] }).toEqual({ webhooksNotInTheDocument: [] });
});
