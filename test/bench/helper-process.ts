import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A benchmark's helper in a process of its own (a receiver, a reference server): the module at `moduleUrl` forked
 * with `args`, its output inherited, an IPC channel open for its messages.
 */
export function forkHelper(moduleUrl: string, args: string[] = ['--serve']): ChildProcess {
  return fork(fileURLToPath(moduleUrl), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Ends a helper process with SIGTERM and waits for its exit (at once when it has exited already). */
export async function stopHelper(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
