import { Inject, Injectable } from '@nestjs/common';
import type { Clock } from '../../../domain/src/clock.js';
import { notFound } from '../../../domain/src/errors.js';
import { INVITATION_CODE, invitationResource, type InvitationStatus } from '../../../domain/src/invitations/invitation.js';
import { Collections } from '../../../read-models/src/projections/collections.js';
import type { InvitationDoc } from '../../../read-models/src/projections/invitation-projection.js';
import type { Filter, ReadModelStore } from '../../../read-models/src/read-model-store.js';
import { listForPlatform } from '../queries/list-query.js';
import { CLOCK, READ_MODELS } from '../tokens.js';

/** Invitation reads; EXPIRED is derived from the injected clock at read time. */
@Injectable()
export class InvitationQueries {
  constructor(@Inject(READ_MODELS) private readonly store: ReadModelStore, @Inject(CLOCK) private readonly clock: Clock) {}

  /** Any platform may read an invitation by its code: the invitee's platform shows it before claiming. */
  async get(code: string) {
    const doc = INVITATION_CODE.test(code) ? await this.store.get<InvitationDoc>(Collections.invitations, code) : undefined;
    if (!doc) throw notFound('INVITATION', code);
    return invitationResource(doc, this.clock.now());
  }

  list(platformId: string, q: { status?: InvitationStatus; inviterUma?: string; limit?: number; cursor?: string }) {
    const now = this.clock.now();
    const filters: Filter[] = [];
    if (q.inviterUma !== undefined) filters.push({ field: 'inviterUma', op: 'eq', value: q.inviterUma });
    if (q.status === 'EXPIRED' || q.status === 'PENDING') {
      filters.push({ field: 'status', op: 'eq', value: 'PENDING' });
      filters.push({ field: 'expiresAt', op: q.status === 'EXPIRED' ? 'lt' : 'gte', value: now.toISOString() });
    } else if (q.status) {
      filters.push({ field: 'status', op: 'eq', value: q.status });
    }
    return listForPlatform<InvitationDoc>(this.store, Collections.invitations, platformId, { filters, limit: q.limit, cursor: q.cursor, sortOrder: 'desc' }, (doc) =>
      invitationResource(doc, now),
    );
  }
}
