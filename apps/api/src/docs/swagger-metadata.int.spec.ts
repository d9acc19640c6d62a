import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { METADATA_FILE, renderSwaggerMetadata } from '../../../../scripts/openapi-metadata.js';

describe('the swagger plugin metadata of the DTO classes', () => {
  it('is what the plugin reads from the DTOs today (run `npm run openapi:metadata`)', async () => {
    const want = (await renderSwaggerMetadata()).split('\n');
    const have = readFileSync(resolve(METADATA_FILE), 'utf8').split('\n');
    const first = want.findIndex((line, i) => line !== have[i]);
    const at = first === -1 && want.length !== have.length ? Math.min(want.length, have.length) : first;
    expect(
      at === -1 ? 'in sync' : `line ${at + 1}: expected ${JSON.stringify(want[at])}, got ${JSON.stringify(have[at])}`,
    ).toBe('in sync');
  }, 120_000);
});
