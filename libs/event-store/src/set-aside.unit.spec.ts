import { describe, expect, it } from '@jest/globals';
import { WrongExpectedVersion } from './event-store.js';
import { describeFailure, handleOrSetAside, isTransientFailure } from './set-aside.js';

const POLICY = { attempts: 3, delaysMs: [0] };
const coded = (code: string) => Object.assign(new Error('store unavailable'), { code });

describe('set-aside policy', () => {
  it.each([
    ['a busy SQLite database', coded('SQLITE_BUSY'), true],
    ['a refused connection', coded('ECONNREFUSED'), true],
    ['a concurrent writer', new WrongExpectedVersion('ledger-1', 'no_stream', 3n), true],
    ['a network error wrapped as a cause', new Error('append failed', { cause: coded('ECONNRESET') }), true],
    ['data past what JSON can state', new RangeError('amount 18014398509481982 does not fit a JSON number'), false],
    ['a missing field', new TypeError("Cannot read properties of undefined (reading 'id')"), false],
    ['a constraint of the data', coded('SQLITE_CONSTRAINT_UNIQUE'), false],
    ['a thrown string', 'boom', false],
  ])('tells whether %s is transient', (_what, error, transient) => {
    expect(isTransientFailure(error)).toBe(transient);
  });

  it('answers the value of work that succeeds, also after failures', async () => {
    let calls = 0;
    const handled = await handleOrSetAside(async () => {
      if (++calls < 3) throw new TypeError('not yet');
      return 'done';
    }, POLICY);
    expect(handled).toEqual({ ok: true, value: 'done' });
  });

  it('gives up after the policy’s attempts with the last failure', async () => {
    let calls = 0;
    const handled = await handleOrSetAside(async () => {
      throw new RangeError(`attempt ${++calls}`);
    }, POLICY);
    expect(handled).toEqual({ ok: false, error: new RangeError('attempt 3'), attempts: 3 });
    expect(calls).toBe(3);
  });

  it('throws a transient failure at once, and any failure once the processor stops', async () => {
    let calls = 0;
    const busy = coded('SQLITE_BUSY');
    await expect(
      handleOrSetAside(async () => {
        calls++;
        throw busy;
      }, POLICY),
    ).rejects.toBe(busy);
    expect(calls).toBe(1);
    const stopping = new Error('stopped while waiting for the read models');
    await expect(
      handleOrSetAside(
        async () => {
          throw stopping;
        },
        POLICY,
        () => true,
      ),
    ).rejects.toBe(stopping);
  });

  it('keeps a failure’s kind and message, without e-mail addresses, and short', () => {
    expect(describeFailure(new TypeError('no customer ada@example.com'))).toBe('TypeError: no customer [redacted]');
    expect(describeFailure('plain')).toBe('plain');
    expect(describeFailure(new Error('x'.repeat(1000))).length).toBe(300);
  });
});
