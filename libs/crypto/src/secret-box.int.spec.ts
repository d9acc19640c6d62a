import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSecretsKey } from './secret-box.js';

describe('the service secrets key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is generated once into the data directory with mode 0600 and read back after', () => {
    const path = join(dir, 'data', 'secrets.key');
    const key = loadSecretsKey({ kind: 'file', path });
    expect(key).toHaveLength(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(loadSecretsKey({ kind: 'file', path })).toEqual(key);
    expect(readdirSync(join(dir, 'data'))).toEqual(['secrets.key']); // no temporary file left
  });

  it('uses SECRETS_KEY when configured and refuses a file that is not 32 bytes', () => {
    const configured = Buffer.alloc(32, 7);
    expect(loadSecretsKey({ kind: 'env', base64: configured.toString('base64') })).toEqual(configured);
    const bad = join(dir, 'bad.key');
    writeFileSync(bad, Buffer.alloc(16).toString('base64'));
    expect(() => loadSecretsKey({ kind: 'file', path: bad })).toThrow(/32 bytes/);
  });
});
