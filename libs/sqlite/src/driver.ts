import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

function resolves(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The package the SQLite driver is loaded from (a child process that opens a file itself imports the same). */
export const sqliteModule = resolves('better-sqlite3-napi') ? 'better-sqlite3-napi' : 'better-sqlite3';

/**
 * The SQLite driver every adapter opens its files with: better-sqlite3 13 where it is installed, 12 otherwise.
 *
 * 13 is built on Node-API and needs Node 22 or later; npm installs it (the optional dependency `better-sqlite3-napi`)
 * only there, and skips it on Node 20. 12 cannot serve Node 24: Node 24's `node::ObjectWrap`, which 12's objects
 * derive from, removes an environment cleanup hook when an object is collected, and a statement collected outside
 * a JavaScript context (an idle collection, a worker thread's teardown) aborts the process. Both have the same API.
 */
export const Sqlite = require(sqliteModule) as typeof BetterSqlite3;

const { version } = require(`${sqliteModule}/package.json`) as { version: string };

/** Which driver `Sqlite` is, for the tests: `better-sqlite3@<version>`. */
export const sqliteDriver = `better-sqlite3@${version}`;
