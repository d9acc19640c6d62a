import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The data directory holds personal data and credentials' hashes: what the service creates there is readable by its
 * own user only (directories 0700, files 0600), whatever the process umask. What already exists is left as it is.
 */
export function ensurePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  // The umask may have taken bits off the directories just created (first ... dir).
  const top = resolve(first);
  for (let d = resolve(dir); ; d = dirname(d)) {
    chmodSync(d, 0o700);
    if (d === top || dirname(d) === d) break;
  }
}

/**
 * Creates an empty file (and its directory) at `path` with mode 0600 unless it exists. Called before SQLite opens a
 * database: SQLite creates its `-wal` and `-shm` files with the database file's mode.
 */
export function ensurePrivateFile(path: string): void {
  if (path === ':memory:' || path === '') return;
  ensurePrivateDir(dirname(path));
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}
