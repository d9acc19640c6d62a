import { describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { sendError, unexpectedErrorLine } from './errors.js';
import type { HttpRequest, HttpResponse } from './platform.js';

const VALUE = 'ada.lovelace@example.com';

const request = (): HttpRequest =>
  ({
    method: 'PATCH',
    url: `/2025-10-13/customers/Customer:1?email=${VALUE}`,
    originalUrl: `/2025-10-13/customers/Customer:1?email=${VALUE}`,
    route: { path: '/2025-10-13/customers/:customerId' },
    id: 'req-1',
    headers: {},
  }) as unknown as HttpRequest;

function response() {
  const sent: { status?: number; body?: string; headers: Record<string, string> } = { headers: {} };
  const res = {
    header: (k: string, v: string) => ((sent.headers[k] = v), res),
    status: (s: number) => ((sent.status = s), res),
    send: (b: string) => ((sent.body = b), res),
  };
  return { res: res as unknown as HttpResponse, sent };
}

describe('the log line of an unexpected error', () => {
  it('has the route, the request id, the class, a constant code and the stack frames, never a request value', () => {
    const error = Object.assign(new TypeError(`cannot normalise "${VALUE}"`), { code: 'ERR_INVALID_ARG_VALUE' });
    const line = unexpectedErrorLine(error, request());
    expect(line).not.toContain(VALUE);
    expect(line.split('\n')[0]).toBe(
      'PATCH /2025-10-13/customers/:customerId [req-1]: TypeError ERR_INVALID_ARG_VALUE (message withheld)',
    );
    expect(line.split('\n').slice(1).length).toBeGreaterThan(0);
    for (const frame of line.split('\n').slice(1)) expect(frame).toMatch(/^ {4}at /);
    // a code that is itself a value is left out
    expect(unexpectedErrorLine(Object.assign(new Error('x'), { code: VALUE }), request())).not.toContain(VALUE);
    expect(unexpectedErrorLine(VALUE, request())).not.toContain(VALUE);
  });

  it('is what a 500 logs, and the answer is the error shape without the message', () => {
    const logged: unknown[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
      logged.push(message);
    });
    try {
      const { res, sent } = response();
      sendError(res, new RangeError(`amount ${VALUE} does not fit`), request());
      expect({ status: sent.status, body: JSON.parse(sent.body!) }).toEqual({
        status: 500,
        body: { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' },
      });
      expect(logged).toHaveLength(1);
      expect(String(logged[0])).toMatch(/^PATCH \/2025-10-13\/customers\/:customerId \[req-1\]: RangeError/);
      expect(String(logged[0])).not.toContain(VALUE);
    } finally {
      spy.mockRestore();
    }
  });
});
