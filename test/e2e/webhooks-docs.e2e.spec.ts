import { describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';

describe('webhooks in the OpenAPI document', () => {
  const t = useTestService();

  it('documents every webhook route and its schemas in the OpenAPI document', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    const routes: [string, string, string][] = [
      ['/config', 'get', 'PlatformConfig'],
      ['/config', 'patch', 'PlatformConfig'],
      ['/webhooks/deliveries', 'get', 'WebhookDelivery'],
      ['/webhooks/deliveries/{deliveryId}', 'get', 'WebhookDelivery'],
      ['/webhooks/deliveries/{deliveryId}/redeliver', 'post', 'WebhookDelivery'],
      ['/sandbox/webhooks/test', 'post', 'WebhookTestResult'],
    ];
    for (const [path, method, schema] of routes) {
      const operation = doc.paths[path]?.[method];
      expect({ path, method, summary: typeof operation?.summary }).toEqual({ path, method, summary: 'string' });
      expect(JSON.stringify(operation.responses)).toContain(`#/components/schemas/${schema}`);
      expect(doc.components.schemas[schema]).toBeDefined();
    }
    expect(doc.components.schemas.WebhookEnvelope).toBeDefined();
    expect(doc.paths['/webhooks/deliveries'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['status', 'type', 'limit', 'cursor', 'sortOrder']),
    );
    expect(doc.components.schemas.PlatformConfig.properties.webhookSigningPublicKey.description).toMatch(/PEM/);
  });
});
