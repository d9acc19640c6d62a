import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import {
  cardProcessorDecider,
  parseProcessorSignature,
  processorAuthorizationId,
  processorSignature,
  verifyProcessorSignature,
} from './card-processor.js';

const secret = 'cpsec_test';
const body = Buffer.from('{"type":"AUTHORIZATION","amount":100}');
const now = 1_800_000_000;
const header = (t: number, v1 = processorSignature(secret, t, body)) => `t=${t},v1=${v1}`;
const verify = (h: string | undefined, raw = body, nowSeconds = now) =>
  verifyProcessorSignature({ header: h, secret, rawBody: raw, nowSeconds });

describe('card processor signatures', () => {
  it('is HMAC-SHA256 of "<t>.<raw body>" in hex', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body.toString()}`).digest('hex');
    expect(processorSignature(secret, now, body)).toBe(expected);
  });

  it('accepts a matching signature within five minutes either way', () => {
    expect(verify(header(now))).toEqual({ valid: true });
    expect(verify(header(now - 300))).toEqual({ valid: true });
    expect(verify(header(now + 300))).toEqual({ valid: true });
  });

  it('accepts any of several v1 entries (a secret being rotated at the processor)', () => {
    const other = processorSignature('cpsec_other', now, body);
    expect(verify(`t=${now},v1=${other},v1=${processorSignature(secret, now, body)}`)).toEqual({ valid: true });
  });

  it('refuses a stale or future timestamp', () => {
    expect(verify(header(now - 301))).toMatchObject({ valid: false, reason: expect.stringContaining('300 seconds') });
    expect(verify(header(now + 301))).toMatchObject({ valid: false });
  });

  it('refuses another body, another secret, another timestamp and malformed headers', () => {
    expect(verify(header(now), Buffer.from('{"type":"AUTHORIZATION","amount":1000}'))).toMatchObject({ valid: false });
    expect(verify(header(now, processorSignature('cpsec_other', now, body)))).toMatchObject({ valid: false });
    expect(verify(`t=${now + 1},v1=${processorSignature(secret, now, body)}`)).toMatchObject({ valid: false });
    for (const bad of [undefined, '', 'v1=abc', `t=${now}`, `t=x,v1=${'a'.repeat(64)}`, `t=${now},v1=zz`])
      expect(verify(bad)).toMatchObject({ valid: false, reason: expect.stringContaining('X-Processor-Signature') });
  });

  it('parses the header, ignoring unknown parts', () => {
    expect(parseProcessorSignature(`t=12,v0=x,v1=${'A'.repeat(64)}`)).toEqual({ t: 12, v1: ['a'.repeat(64)] });
  });
});

describe('card processor settings and ids', () => {
  it('defaults to a 1500 ms deadline and a DECLINE stand-in; refuses a deadline past 3000 ms', () => {
    const state = cardProcessorDecider.initialState();
    expect(state).toEqual({ decisionDeadlineMs: 1500, standInDecision: 'DECLINE' });
    const configure = (decisionDeadlineMs: number) => ({
      type: 'ConfigureCardProcessor' as const,
      platformId: 'Platform:p',
      changes: { decisionDeadlineMs },
      now: '2026-01-01T00:00:00.000Z',
    });
    expect(() => cardProcessorDecider.decide(configure(3001), state)).toThrow('decisionDeadlineMs');
    expect(cardProcessorDecider.decide(configure(1500), state)).toEqual([]);
    expect(cardProcessorDecider.decide(configure(800), state)).toHaveLength(1);
  });

  it('derives the authorization id from the platform and the network transaction id', () => {
    const a = processorAuthorizationId('Platform:a', 'ntx-1');
    expect(a).toBe(processorAuthorizationId('Platform:a', 'ntx-1'));
    expect(a).not.toBe(processorAuthorizationId('Platform:b', 'ntx-1'));
    expect(a).toMatch(/^CardAuthorization:[0-9a-f-]{36}$/);
  });
});
