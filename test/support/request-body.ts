import type { IncomingMessage } from 'node:http';

/** The whole body of a request to a test server, as UTF-8 text. */
export function requestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
