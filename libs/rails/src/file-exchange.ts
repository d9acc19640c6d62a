/**
 * Folder I/O for the bank's host-to-host exchange (a drop folder an SFTP/EBICS client carries): files appear
 * whole or not at all, are listed with their digest, and are moved aside once handled. Node fs/promises only.
 */
import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, readdir, rename, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

export interface InboxFile {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

/** A name this module writes or the exchange may hold while a file is in transit, never a file to take. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') || /\.(tmp|part|filepart|partial)$/i.test(name) || name.endsWith('~');
}

function requirePlainName(name: string): void {
  if (!name || name !== basename(name) || name === '.' || name === '..' || isTemporaryName(name))
    throw new Error(`file name ${JSON.stringify(name)} is not a plain, final file name`);
}

/** Opens `path`, hands the handle to `use` and closes it whatever `use` does. */
async function withHandle<T>(path: string, flags: string, use: (handle: FileHandle) => Promise<T>, mode?: number) {
  const handle = await open(path, flags, mode);
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

/** Makes the folder's entries (a rename, a new file) durable. */
async function fsyncDirectory(dir: string): Promise<void> {
  await withHandle(dir, 'r', (handle) => handle.sync());
}

async function existingContent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Writes `content` as `dir/name` so that a reader of the folder never sees a partial file: written to
 * `.name.tmp` in the same folder, fsynced, renamed into place, and the folder fsynced. Writing the same content
 * again does nothing (idempotent); other content under a name that exists is refused.
 */
export async function writeFileAtomically(dir: string, name: string, content: string | Buffer): Promise<void> {
  requirePlainName(name);
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const target = join(dir, name);
  const existing = await existingContent(target);
  if (existing) {
    if (existing.equals(data)) return;
    throw new Error(`${target} already exists with other content`);
  }
  await putInPlace(dir, name, data);
}

async function putInPlace(dir: string, name: string, data: Buffer): Promise<void> {
  const temp = join(dir, `.${name}.tmp`);
  const write = async (handle: FileHandle) => {
    await handle.writeFile(data);
    await handle.sync();
  };
  await withHandle(temp, 'w', write, 0o640);
  await rename(temp, join(dir, name));
  await fsyncDirectory(dir);
}

/** Like writeFileAtomically, for a file that is meant to change (such as saved state): replaces it whole. */
export async function replaceFileAtomically(path: string, content: string | Buffer): Promise<void> {
  const name = basename(path);
  requirePlainName(name);
  await putInPlace(dirname(path), name, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
}

/** The regular files of a folder ready to be taken, sorted by name: no dot-files, temp names or folders. */
export async function listInbox(dir: string): Promise<InboxFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && !isTemporaryName(e.name)).map((e) => e.name);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const listed: InboxFile[] = [];
  for (const name of files) {
    const path = join(dir, name);
    const data = await readFile(path);
    listed.push({ name, path, sha256: createHash('sha256').update(data).digest('hex'), bytes: data.length });
  }
  return listed;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/**
 * Moves a file into a folder (such as `processed/` or `quarantine/`), creating it, keeping the name; when the
 * name is taken there, adds `.1`, `.2`... before the extension. Returns the new path.
 */
export async function moveTo(path: string, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = basename(path);
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let target = join(dir, name);
  for (let n = 1; await exists(target); n++) target = join(dir, `${stem}.${n}${ext}`);
  await rename(path, target);
  await fsyncDirectory(dir);
  return target;
}
