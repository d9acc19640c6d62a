import { createServer } from 'node:net';

/**
 * A port free now: the system's choice for port 0 on 127.0.0.1, bound once and released. Nothing listens on it
 * afterwards, so a test can give it to a child process to listen on, or use it as an address that refuses connections.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
