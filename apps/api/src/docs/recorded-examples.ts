import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsRoot } from './docs-site.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document, walked by key
type Schema = Record<string, any>;

interface RecordedExamples {
  operations: Record<string, { request?: unknown; responses: Record<string, unknown> }>;
  webhooks: Record<string, unknown>;
}

/**
 * The request and response examples recorded from a real run against the service (docs/openapi-examples.json,
 * written by `npm run openapi:examples`; test/e2e/openapi-examples.e2e.spec.ts fails when one no longer validates
 * against its schema), put on their operations' media types and on the webhooks' payloads.
 */
export function addRecordedExamples(document: Schema): void {
  const file = join(docsRoot(), 'docs/openapi-examples.json');
  if (!existsSync(file)) return;
  const examples = JSON.parse(readFileSync(file, 'utf8')) as RecordedExamples;
  for (const [key, example] of Object.entries(examples.operations)) {
    const [method, path] = key.split(' ');
    const op = document.paths[path]?.[method.toLowerCase()];
    if (!op) continue;
    const content = op.requestBody?.content ?? {};
    const request = content['application/json'] ?? content['multipart/form-data'];
    if (request && example.request !== undefined) request.examples = recorded(example.request);
    for (const [status, body] of Object.entries(example.responses)) {
      const media = op.responses[status]?.content?.['application/json'];
      if (media) media.examples = recorded(body);
    }
  }
  for (const [family, payload] of Object.entries(examples.webhooks)) {
    const media = document.webhooks?.[family]?.post?.requestBody?.content?.['application/json'];
    if (media) media.examples = recorded(payload);
  }
}

/** A media type's `examples` (not `example`: the client's generated types would carry every one as JSDoc). */
const recorded = (value: unknown) => ({ recorded: { summary: 'Recorded from a run against the sandbox', value } });
