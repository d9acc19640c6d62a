import { describe, expect, it } from '@jest/globals';
import { ResponseChecker } from './response-check.js';

const json = 'application/json; charset=utf-8';
const document = {
  openapi: '3.1.0',
  paths: {
    '/customers/{customerId}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Customer' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/customers/internal-accounts': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { type: 'object', required: ['data'] } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Customer: {
        type: 'object',
        required: ['id', 'createdAt'],
        properties: { id: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
      },
      Error: { type: 'object', required: ['status', 'code'] },
    },
  },
};

describe('ResponseChecker', () => {
  const checker = new ResponseChecker(document);

  it('accepts an answer that matches the schema of its status', () => {
    const customer = { id: 'Customer:1', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(checker.check('GET', '/customers/Customer:1?x=1', 200, customer, json)).toBeUndefined();
    expect(checker.check('GET', '/customers/Customer:1', 404, { status: 404, code: 'X' }, json)).toBeUndefined();
  });

  it('names the field that breaks the schema, through references and formats', () => {
    expect(checker.check('GET', '/customers/Customer:1', 200, { id: 'Customer:1' }, json)).toMatch(
      /GET \/customers\/\{customerId\} 200: .*createdAt/,
    );
    expect(checker.check('GET', '/customers/Customer:1', 200, { id: 'C', createdAt: 'yesterday' }, json)).toMatch(
      /\/createdAt must match format "date-time"/,
    );
  });

  it('prefers a literal path to a template, and reports a route the document lacks', () => {
    expect(checker.check('GET', '/customers/internal-accounts', 200, { data: [] }, json)).toBeUndefined();
    expect(checker.check('GET', '/customers/internal-accounts', 200, {}, json)).toMatch(/internal-accounts 200/);
    expect(checker.check('POST', '/customers/Customer:1', 201, {}, json)).toMatch(/is not in the document/);
    // The service's own answer for a route it does not have is not a finding.
    expect(checker.check('GET', '/nope', 404, { status: 404, code: 'NOT_FOUND' }, json)).toBeUndefined();
  });
});
