import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '#domain/errors.js';
import { INVITATION_CODE, invitationResource, type InvitationStatus } from '#domain/invitations/invitation.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InvitationDoc } from '#read-models/projections/invitations/invitation-projection.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { listForPlatform } from '../queries/list-query.js';
import { READ_MODELS } from '../tokens.js';
import { PlatformClocks } from '../command-context.js';

/** Invitation reads; EXPIRED is derived at read time from the inviting platform's clock. */
@Injectable()
export class InvitationQueries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    private readonly clocks: PlatformClocks,
  ) {}

  /** Any platform may read an invitation by its code: the invitee's platform shows it before claiming. */
  async get(code: string) {
    const doc = INVITATION_CODE.test(code)
      ? await this.store.get<InvitationDoc>(Collections.invitations, code)
      : undefined;
    if (!doc) throw notFound('INVITATION', code);
    // Expiry is on the inviting platform's clock, whoever reads it.
    return invitationResource(doc, await this.clocks.now(doc.platformId));
  }

  async list(
    platformId: string,
    q: { status?: InvitationStatus; inviterUma?: string; limit?: number; cursor?: string },
  ) {
    const now = await this.clocks.now(platformId);
    const filters: Filter[] = [];
    if (q.inviterUma !== undefined) filters.push({ field: 'inviterUma', op: 'eq', value: q.inviterUma });
    if (q.status === 'EXPIRED' || q.status === 'PENDING') {
      filters.push({ field: 'status', op: 'eq', value: 'PENDING' });
      filters.push({ field: 'expiresAt', op: q.status === 'EXPIRED' ? 'lt' : 'gte', value: now.toISOString() });
    } else if (q.status) {
      filters.push({ field: 'status', op: 'eq', value: q.status });
    }
    return listForPlatform<InvitationDoc>(
      this.store,
      Collections.invitations,
      platformId,
      { filters, limit: q.limit, cursor: q.cursor, sortOrder: 'desc' },
      (doc) => invitationResource(doc, now),
    );
  }
}
