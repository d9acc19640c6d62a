import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fetchOpenApiDocument, GENERATED_TYPES_FILE, renderClientTypes } from '../../../scripts/client-types.js';
import { startTestService, type TestService } from '../../../test/support/service.js';

describe('the client package types generated from the OpenAPI document', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => t?.close());

  it('are what openapi-typescript makes of the document the service serves (run `npm run client:types`)', async () => {
    const expected = await renderClientTypes(await fetchOpenApiDocument(t.url));
    const checkedIn = readFileSync(resolve(GENERATED_TYPES_FILE), 'utf8');
    // Not toEqual on the whole text: on drift, name the first line that differs instead of printing 10k lines.
    const want = expected.split('\n');
    const have = checkedIn.split('\n');
    const first = want.findIndex((line, i) => line !== have[i]);
    const at = first === -1 && want.length !== have.length ? Math.min(want.length, have.length) : first;
    expect(
      at === -1 ? 'in sync' : `line ${at + 1}: expected ${JSON.stringify(want[at])}, got ${JSON.stringify(have[at])}`,
    ).toBe('in sync');
  });
});
