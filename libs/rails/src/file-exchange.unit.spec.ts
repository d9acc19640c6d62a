import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isTemporaryName, listInbox, moveTo, writeFileAtomically } from './file-exchange.js';
import { useTempFolder } from './temp-folder.fixtures.js';

describe('bank file exchange folders', () => {
  const folder = useTempFolder('exchange-');

  it('writes a file whole, leaving no temp file, and is idempotent for the same content', async () => {
    const dir = folder();
    await writeFileAtomically(dir, 'pain.001.A.xml', '<a/>');
    expect(await readFile(join(dir, 'pain.001.A.xml'), 'utf8')).toBe('<a/>');
    expect(await readdir(dir)).toEqual(['pain.001.A.xml']);
    await writeFileAtomically(dir, 'pain.001.A.xml', Buffer.from('<a/>'));
    expect(await readdir(dir)).toEqual(['pain.001.A.xml']);
  });

  it('refuses other content under a name that exists, and names that are not plain', async () => {
    const dir = folder();
    await writeFileAtomically(dir, 'x.xml', 'one');
    await expect(writeFileAtomically(dir, 'x.xml', 'two')).rejects.toThrow(/already exists with other content/);
    expect(await readFile(join(dir, 'x.xml'), 'utf8')).toBe('one');
    for (const bad of ['../x.xml', 'a/b.xml', '.hidden', 'x.xml.tmp', ''])
      await expect(writeFileAtomically(dir, bad, 'z')).rejects.toThrow(/not a plain, final file name/);
  });

  it('lists regular files by name with digest and size, skipping dot-files, temp names and folders', async () => {
    const dir = folder();
    await writeFile(join(dir, 'b.xml'), 'bbb');
    await writeFile(join(dir, 'a.xml'), 'a');
    await writeFile(join(dir, '.a.xml.tmp'), 'partial');
    await writeFile(join(dir, 'upload.xml.part'), 'partial');
    await writeFile(join(dir, '.DS_Store'), '');
    await mkdir(join(dir, 'processed'));
    await symlink(join(dir, 'a.xml'), join(dir, 'link.xml'));
    const listed = await listInbox(dir);
    expect(listed.map((f) => f.name)).toEqual(['a.xml', 'b.xml']);
    expect(listed[1]).toEqual({
      name: 'b.xml',
      path: join(dir, 'b.xml'),
      sha256: createHash('sha256').update('bbb').digest('hex'),
      bytes: 3,
    });
    expect(isTemporaryName('.x.xml.tmp')).toBe(true);
    expect(isTemporaryName('camt.054.x.xml')).toBe(false);
  });

  it('moves a file into a subfolder it creates, keeping the name or adding a suffix when taken', async () => {
    const dir = folder();
    await writeFile(join(dir, 'camt.054.1.xml'), 'first');
    const first = await moveTo(join(dir, 'camt.054.1.xml'), join(dir, 'processed'));
    expect(first).toBe(join(dir, 'processed', 'camt.054.1.xml'));
    await writeFile(join(dir, 'camt.054.1.xml'), 'second');
    const second = await moveTo(join(dir, 'camt.054.1.xml'), join(dir, 'processed'));
    expect(second).toBe(join(dir, 'processed', 'camt.054.1.1.xml'));
    expect(await readFile(first, 'utf8')).toBe('first');
    expect(await readFile(second, 'utf8')).toBe('second');
    expect((await listInbox(dir)).length).toBe(0);
  });
});
