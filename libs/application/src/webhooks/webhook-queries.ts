import { Inject, Injectable } from '@nestjs/common';
import { streams } from '#domain/primitives.js';
import { webhookConfigDecider } from '#domain/webhooks/webhook-config.js';
import type { DecisionEndpoint } from '#domain/webhooks/decision-endpoints.js';
import { Collections } from '#read-models/projections/collections.js';
import {
  toWebhookDelivery,
  type WebhookDeliveryDoc,
} from '#read-models/projections/webhooks/webhook-delivery-projection.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { CommandRunner } from '../command-runner.js';
import { getForPlatform, listForPlatform } from '../queries/list-query.js';
import { READ_MODELS, SECRET_BOX } from '../tokens.js';
import type { SecretBox } from '#crypto/secret-box.js';
import { openWebhookSecret } from './webhook-keys.js';
import { deliveryList, type DeliveryCriteria } from '../queries/list-criteria.js';

export interface PlatformConfigResource {
  webhookEndpoint: string | null;
  webhookSigningPublicKey: string | null;
  /** Absent when the caller may not see it. */
  webhookSecret?: string | null;
  /** Where the platform decides card authorizations and agent actions ([] while none is registered). */
  decisionEndpoints: DecisionEndpoint[];
  createdAt: string;
  updatedAt: string;
}

/** The webhook configuration (from its stream: always current) and the deliveries read model. */
@Injectable()
export class WebhookQueries {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  /** `withSecret`: whether the caller may see the Standard Webhooks secret (a token that may manage the platform). */
  async config(platformId: string, withSecret = true): Promise<PlatformConfigResource> {
    const { state } = await this.runner.load(streams.webhooks(platformId), webhookConfigDecider);
    if (!state.keys) {
      // Not configured yet: the platform's own dates, no endpoint and no key.
      const platform = await this.store.get<Doc & { createdAt: string }>(Collections.platforms, platformId);
      const at = platform?.createdAt ?? new Date(0).toISOString();
      return {
        webhookEndpoint: null,
        webhookSigningPublicKey: null,
        ...(withSecret ? { webhookSecret: null } : {}),
        decisionEndpoints: [],
        createdAt: at,
        updatedAt: at,
      };
    }
    return {
      webhookEndpoint: state.webhookEndpoint,
      webhookSigningPublicKey: state.keys.publicKeyPem,
      ...(withSecret ? { webhookSecret: openWebhookSecret(this.box, platformId, state.keys) } : {}),
      decisionEndpoints: state.decisionEndpoints ?? [],
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
    };
  }

  async delivery(platformId: string, id: string) {
    const collection = Collections.webhookDeliveries;
    return toWebhookDelivery(
      await getForPlatform<WebhookDeliveryDoc>(this.store, collection, 'WEBHOOK_DELIVERY', platformId, id),
    );
  }

  listDeliveries(platformId: string, criteria: DeliveryCriteria) {
    return listForPlatform<WebhookDeliveryDoc>(
      this.store,
      Collections.webhookDeliveries,
      platformId,
      deliveryList(criteria),
      toWebhookDelivery,
    );
  }
}
