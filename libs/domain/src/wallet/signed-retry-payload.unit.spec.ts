import { describe, it, expect } from '@jest/globals';
import { DomainError } from '../errors.js';
import { assertRetryBodyMatches, buildPayloadToSign, operationOf, parsePayloadToSign } from './signed-retry.js';

const fields = {
  operation: operationOf('patch', '/cards/Card:00000000-0000-4000-8000-000000000001'),
  targetId: 'Card:00000000-0000-4000-8000-000000000001',
  accountId: 'InternalAccount:00000000-0000-4000-8000-000000000002',
  requestId: 'Request:00000000-0000-4000-8000-000000000003',
  expiresAt: '2025-10-13T12:05:00.000Z',
  body: { state: 'FROZEN', fundingSources: ['InternalAccount:b', 'InternalAccount:a'] },
};

function mismatch(body: unknown): DomainError {
  try {
    assertRetryBodyMatches(buildPayloadToSign(fields), body);
  } catch (e) {
    return e as DomainError;
  }
  throw new Error('expected a body mismatch');
}

describe('payloadToSign', () => {
  it(
    'is compact JSON with keys sorted at every level, binding operation, target, account, ' +
      'requestId, expiry and body',
    () => {
      expect(buildPayloadToSign(fields)).toBe(
        '{"accountId":"InternalAccount:00000000-0000-4000-8000-000000000002",' +
          '"body":{"fundingSources":["InternalAccount:b","InternalAccount:a"],"state":"FROZEN"},' +
          '"expiresAt":"2025-10-13T12:05:00.000Z",' +
          '"operation":"PATCH /cards/Card:00000000-0000-4000-8000-000000000001",' +
          '"requestId":"Request:00000000-0000-4000-8000-000000000003",' +
          '"targetId":"Card:00000000-0000-4000-8000-000000000001"}',
      );
    },
  );

  it('does not depend on the order in which fields were given', () => {
    const reordered = {
      body: { fundingSources: fields.body.fundingSources, state: 'FROZEN' },
      expiresAt: fields.expiresAt,
      requestId: fields.requestId,
      accountId: fields.accountId,
      targetId: fields.targetId,
      operation: fields.operation,
    };
    expect(buildPayloadToSign(reordered)).toBe(buildPayloadToSign(fields));
    expect(parsePayloadToSign(buildPayloadToSign(fields))).toEqual(fields);
  });
});

describe('retry body echo', () => {
  it('accepts the same fields in any order', () => {
    expect(() =>
      assertRetryBodyMatches(buildPayloadToSign(fields), {
        fundingSources: ['InternalAccount:b', 'InternalAccount:a'],
        state: 'FROZEN',
      }),
    ).not.toThrow();
  });

  it('treats a missing body like an empty one when nothing was bound', () => {
    expect(() => assertRetryBodyMatches(buildPayloadToSign({ ...fields, body: {} }), undefined)).not.toThrow();
  });

  it.each([
    ['a changed field', { ...fields.body, state: 'ACTIVE' }, 'body field state differs from the signed payload'],
    [
      'a reordered array',
      { ...fields.body, fundingSources: ['InternalAccount:a', 'InternalAccount:b'] },
      'body field fundingSources differs from the signed payload',
    ],
    ['a missing field', { state: 'FROZEN' }, 'body field fundingSources is missing from the retry'],
    ['an added field', { ...fields.body, nickname: 'x' }, 'body field nickname is not part of the signed payload'],
    ['a number given as a string', { ...fields.body, state: 1 }, 'body field state differs from the signed payload'],
    ['an array body', [fields.body], 'the retried body is not a JSON object'],
  ])('refuses %s with WALLET_SIGNATURE_BODY_MISMATCH (401) naming the field', (_name, body, reason) => {
    const error = mismatch(body);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unauthorized', code: 'WALLET_SIGNATURE_BODY_MISMATCH', details: { reason } });
  });
});
