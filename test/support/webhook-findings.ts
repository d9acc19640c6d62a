/**
 * Webhooks a test's receivers got that do not match the OpenAPI document's `webhooks:` section. Every test file
 * ends by asserting there are none (`check-webhooks.ts`, a Jest setup file), after its own clean-up has run.
 */
export const webhookFindings: string[] = [];
