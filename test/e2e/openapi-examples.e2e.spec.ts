import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as prettier from 'prettier';
import { ManualClock } from '#domain/clock.js';
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import { agentsTour } from '../support/examples/agents.js';
import { bankRailTour } from '../support/examples/bank-rails.js';
import { createsTour } from '../support/examples/creates.js';
import { onboardingTour } from '../support/examples/onboarding.js';
import { platformTour, redeliveryTour } from '../support/examples/platform.js';
import { cardProcessorTour } from '../support/examples/card-processor.js';
import { kycReviewTour } from '../support/examples/kyc-reviews.js';
import type { Tour } from '../support/examples/tour.js';
import { walletTour } from '../support/examples/wallet.js';
import { ExampleRecorder, type RecordedExamples } from '../support/example-recorder.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { signedRequest } from '../support/wallet-session.js';
import { pointWebhooksAt, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { usd as usdAccountInfo } from './external-account-support.js';

/** The checked-in examples the OpenAPI document shows (apps/api/src/docs/openapi.ts reads them). */
const EXAMPLES_FILE = resolve('docs/openapi-examples.json');
const MAIN_WEBHOOKS = ['test', 'internal-account', 'card'];

const readExamples = (): RecordedExamples => JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as RecordedExamples;

/**
 * Request and response examples taken from real runs: a tour through every operation of the served document
 * (customers, accounts, quotes and transactions, cards, wallet authentication, agents, onboarding, the platform's
 * own resources, webhooks; test/support/examples/) against the in-process service, every answer checked against
 * the document as always. `RECORD_EXAMPLES=1` (`npm run openapi:examples`) writes what the run sent and got to
 * docs/openapi-examples.json; every run checks that each checked-in example still validates against its schema in
 * the served document, that the document shows it, and that every operation has a recorded success.
 */
describe('OpenAPI examples recorded from real runs', () => {
  let t: TestService;
  let document: any;
  let receiver: WebhookReceiver;
  let shown: RecordedExamples;
  let recorder: ExampleRecorder;
  let tour: Tour;
  let h: Cardholder;
  const clock = new ManualClock(Date.UTC(2026, 3, 6, 9));

  beforeAll(async () => {
    t = await startTestService({ clock });
    document = (await t.api.get('/openapi.json')).body;
    // what the served document was built from (a recording run rewrites the file after)
    shown = readExamples();
    receiver = await startWebhookReceiver('ok');
    recorder = new ExampleRecorder(document);
    tour = { t, api: recorder.wrap(t.api), anonymous: recorder.wrap(t.anonymous), clock, recorder };
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('customers, accounts, a card and a payment answer as documented', async () => {
    const { api } = tour;
    await pointWebhooksAt(api, receiver);
    // the configuration shows decision endpoints (removed again: the tours' cards and agents are decided by rules)
    const decisionEndpoints = [
      { type: 'CARD_AUTHORIZATION.REQUEST', url: 'https://decisions.example.com/cards', deadlineMs: 800 },
      { type: 'AGENT_ACTION.REQUEST', url: 'https://decisions.example.com/agents', defaultDecision: 'WAIT' },
    ];
    expect((await api.patch('/config', { decisionEndpoints })).status).toBe(200);
    expect((await api.get('/config')).status).toBe(200);
    expect((await api.patch('/config', { decisionEndpoints: [] })).status).toBe(200);
    expect((await api.post('/sandbox/webhooks/test', {})).status).toBe(200);

    h = await cardholder(t, api, clock, 'examples-ada');
    expect((await api.get(`/customers/${h.customerId}`)).status).toBe(200);
    expect((await api.get('/customers?limit=2')).status).toBe(200);
    expect((await api.get(`/internal-accounts/${h.usd}`)).status).toBe(200);
    expect((await api.get(`/auth/sessions?accountId=${encodeURIComponent(h.wallet.accountId)}`)).status).toBe(200);
    expect((await api.get(`/cards?customerId=${encodeURIComponent(h.customerId)}`)).status).toBe(200);
    expect((await api.get(`/cards/${h.cardId}/transactions`)).status).toBe(200);
    const frozen = await signedRequest(api, 'PATCH', `/cards/${h.cardId}`, { state: 'FROZEN' }, h.wallet);
    expect([frozen.challenge.status, frozen.result.status]).toEqual([202, 200]);

    await payExternalAccount(api, h.customerId, h.usd);
    await receiver.waitFor(
      () => MAIN_WEBHOOKS.every((family) => received(recorder, receiver, family)),
      10_000,
      `webhooks of ${MAIN_WEBHOOKS.join(', ')}`,
    );
    expect((await api.get('/webhooks/deliveries?limit=2')).status).toBe(200);
  }, 60_000);

  it('every create and every money movement answers as documented', async () => {
    // without an endpoint, incoming payments wait PENDING for the platform's approve or reject call (the receiver
    // would approve them by answering their INCOMING_PAYMENT.PENDING webhook 200)
    expect((await tour.api.patch('/config', { webhookEndpoint: null })).status).toBe(200);
    await createsTour(tour);
    await pointWebhooksAt(tour.api, receiver);
  }, 120_000);
  it('agents and their own operations answer as documented', () => agentsTour(tour), 60_000);
  it('onboarding (KYC link, bulk import, documents, owners) answers as documented', () => onboardingTour(tour), 60_000);
  it('the wallet signed calls answer as documented', () => walletTour(tour), 60_000);
  it('a production platform’s bank rail answers as documented', () => bankRailTour(tour), 60_000);
  it('tokens, audit, lookups, the sandbox clock and the pages answer as documented', async () => {
    await platformTour(tour, h);
    await redeliveryTour(tour, receiver, h.usd);
  }, 60_000);
  it('the card processor’s messages answer as documented', () => cardProcessorTour(tour, h), 60_000);
  it('a production platform’s KYC review queue answers as documented', () => kycReviewTour(tour), 60_000);

  it('every operation has a summary and a recorded success (RECORD_EXAMPLES=1 writes them)', async () => {
    const { api } = tour;
    // answers in the error shape, after the good requests (an operation's request example is its first body)
    expect((await api.post('/customers', { customerType: 'ROBOT', platformCustomerId: '' })).status).toBe(400);
    expect((await api.get('/customers/Customer:00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await tour.anonymous.get('/customers')).status).toBe(401);
    for (const request of receiver.requests) if (request.json) recorder.webhook(request.json);

    expect(unrecorded(document, recorder.recorded)).toEqual([]);
    if (process.env.RECORD_EXAMPLES) writeFileSync(EXAMPLES_FILE, await render(recorder.recorded));
  });

  it('every checked-in example still validates against its schema in the served document', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(document, 'doc');
    const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    const findings: string[] = [];
    const check = (what: string, pointer: string, value: unknown) => {
      const validate = ajv.compile({ $ref: `doc#${pointer}` });
      if (!validate(value)) findings.push(`${what}: ${ajv.errorsText(validate.errors?.slice(0, 3))}`);
    };
    const examples = readExamples();
    for (const [key, example] of Object.entries(examples.operations)) {
      const [method, path] = key.split(' ');
      const op = document.paths[path]?.[method.toLowerCase()];
      if (!op) {
        findings.push(`${key} is not in the document`);
        continue;
      }
      const at = `/paths/${esc(path)}/${method.toLowerCase()}`;
      if (example.request !== undefined)
        check(`${key} request`, `${at}/requestBody/content/${esc(requestMedia(op))}/schema`, example.request);
      for (const [status, body] of Object.entries(example.responses)) {
        const json = op.responses[status]?.content?.['application/json'];
        // null: a success answered without a JSON body, as documented
        if (body === null && op.responses[status] && !json) continue;
        if (!json) findings.push(`${key} ${status} is not documented`);
        else check(`${key} ${status}`, `${at}/responses/${status}/content/application~1json/schema`, body);
      }
    }
    for (const [family, payload] of Object.entries(examples.webhooks)) {
      check(`webhook ${family}`, `/webhooks/${esc(family)}/post/requestBody/content/application~1json/schema`, payload);
    }
    expect(findings).toEqual([]);
    expect(unrecorded(document, examples)).toEqual([]);
    expect(MAIN_WEBHOOKS.filter((family) => !examples.webhooks[family])).toEqual([]);
  });

  it('the served document shows each checked-in example on its operation', () => {
    const examples = shown;
    const missing: string[] = [];
    for (const [key, example] of Object.entries(examples.operations)) {
      const [method, path] = key.split(' ');
      const op = document.paths[path][method.toLowerCase()];
      if (example.request !== undefined && op.requestBody?.content[requestMedia(op)]?.examples?.recorded === undefined)
        missing.push(`${key} request`);
      for (const [status, body] of Object.entries(example.responses))
        if (body !== null && op.responses[status]?.content?.['application/json']?.examples?.recorded === undefined)
          missing.push(`${key} ${status}`);
    }
    for (const family of Object.keys(examples.webhooks))
      if (document.webhooks[family].post.requestBody.content['application/json'].examples?.recorded === undefined)
        missing.push(`webhook ${family}`);
    expect(missing).toEqual([]);
  });
});

/** The media type of an operation's request body examples: JSON, or a multipart form. */
const requestMedia = (op: any): string =>
  op.requestBody?.content['application/json'] ? 'application/json' : 'multipart/form-data';

/**
 * The document's operations (`METHOD /path`) without a summary, without a recorded success answer (a 2xx status),
 * or that take a body (JSON or a multipart form) without a recorded request example.
 */
function unrecorded(document: any, examples: RecordedExamples): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths))
    for (const [method, op] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${path}`;
      const example = examples.operations[key];
      if (!op.summary) missing.push(`${key}: no summary`);
      if (!Object.keys(example?.responses ?? {}).some((status) => status.startsWith('2')))
        missing.push(`${key}: no success answer`);
      if (op.requestBody && example?.request === undefined) missing.push(`${key}: no request body`);
    }
  return missing;
}

/** Whether the receiver got a webhook of `family`; noted as that family's example. */
function received(recorder: ExampleRecorder, receiver: WebhookReceiver, family: string): boolean {
  for (const request of receiver.requests) if (request.json) recorder.webhook(request.json);
  return recorder.recorded.webhooks[family] !== undefined;
}

/** Pays 125.00 USD from the customer's account to a new bank account of theirs with a quote. */
async function payExternalAccount(api: Client, customerId: string, usd: string): Promise<void> {
  const bank = await api.post('/customers/external-accounts', {
    customerId,
    currency: 'USD',
    accountInfo: usdAccountInfo('000123456789'),
  });
  expect(bank.status).toBe(201);
  const quote = await api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: bank.body.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_250,
    description: 'Example payout',
  });
  expect(quote.status).toBe(201);
  const executed = await api.post(`/quotes/${quote.body.id}/execute`);
  expect(executed.status).toBe(200);
  expect((await api.get(`/quotes/${quote.body.id}`)).status).toBe(200);
  expect((await api.get(`/transactions?customerId=${encodeURIComponent(customerId)}&limit=2`)).status).toBe(200);
  expect((await api.get(`/transactions/${executed.body.transactionId}`)).status).toBe(200);
}

/** The examples file's text: operations in path order, so a new recording shows as a readable diff. */
async function render(recorded: RecordedExamples): Promise<string> {
  const sorted = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const text = JSON.stringify({ operations: sorted(recorded.operations), webhooks: sorted(recorded.webhooks) });
  return prettier.format(text, { ...(await prettier.resolveConfig(EXAMPLES_FILE)), parser: 'json' });
}
