import { Inject, Injectable } from '@nestjs/common';
import { isPublicId, type ResourceKind } from '#domain/primitives.js';
import { notFound } from '#domain/errors.js';
import type { AuthMethodView, AuthSessionView } from '#domain/wallet/wallet-views.js';
import { Collections } from '#read-models/projections/collections.js';
import type { AuthMethodDoc, AuthSessionDoc } from '#read-models/projections/wallet/wallet-auth-projection.js';
import type { Doc, Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { READ_MODELS } from '../tokens.js';
import { PlatformClocks } from '../command-context.js';

// The spec's credential and session lists are not paginated; a wallet has a handful of each.
const LIST_LIMIT = 1000;

export function toAuthMethod(doc: AuthMethodDoc): AuthMethodView {
  return {
    id: doc.id,
    accountId: doc.accountId,
    type: doc.type,
    nickname: doc.nickname,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    ...(doc.credentialId ? { credentialId: doc.credentialId } : {}),
  };
}

/** A session shows the fields of the credential that issued it, with its own id and times. */
export function toAuthSession(doc: AuthSessionDoc, method: AuthMethodDoc | undefined): AuthSessionView {
  return {
    id: doc.id,
    accountId: doc.accountId,
    type: method?.type ?? 'EMAIL_OTP',
    nickname: method?.nickname ?? '',
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    ...(method?.credentialId ? { credentialId: method.credentialId } : {}),
    expiresAt: doc.expiresAt,
  };
}

/** Read side of wallet authentication, scoped to the caller's platform. */
@Injectable()
export class WalletQueries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    private readonly clocks: PlatformClocks,
  ) {}

  /** Active credentials of an account; empty when the account is unknown or another platform's. */
  async listCredentials(platformId: string, accountId: string): Promise<{ data: AuthMethodView[] }> {
    const docs = await this.find<AuthMethodDoc>(Collections.authMethods, platformId, [
      { field: 'accountId', op: 'eq', value: accountId },
      { field: 'status', op: 'eq', value: 'ACTIVE' },
    ]);
    return { data: docs.map(toAuthMethod) };
  }

  /** Active, unexpired sessions of an account, without any key material. */
  async listSessions(platformId: string, accountId: string): Promise<{ data: AuthSessionView[] }> {
    const docs = await this.find<AuthSessionDoc>(Collections.authSessions, platformId, [
      { field: 'accountId', op: 'eq', value: accountId },
      { field: 'status', op: 'eq', value: 'ACTIVE' },
      { field: 'expiresAt', op: 'gt', value: (await this.clocks.now(platformId)).toISOString() },
    ]);
    const methods = new Map<string, AuthMethodDoc | undefined>();
    for (const id of new Set(docs.map((d) => d.authMethodId)))
      methods.set(id, await this.store.get<AuthMethodDoc>(Collections.authMethods, id));
    return { data: docs.map((d) => toAuthSession(d, methods.get(d.authMethodId))) };
  }

  /**
   * Whether an active passkey with this WebAuthn credential id is registered on any account of any
   * platform: one authenticator credential belongs to one wallet. This read refuses early (before
   * a challenge); the credential id's claim, taken when the passkey is added, is what stands guard.
   */
  async passkeyRegistered(credentialId: string): Promise<boolean> {
    const page = await this.store.find(Collections.authMethods, {
      filters: [
        { field: 'credentialId', op: 'eq', value: credentialId },
        { field: 'status', op: 'eq', value: 'ACTIVE' },
      ],
      sortBy: 'createdAt',
      sortOrder: 'asc',
      limit: 1,
    });
    return page.totalCount > 0;
  }

  /** A credential of the caller's platform (any status), or 404. */
  credential(platformId: string, id: string): Promise<AuthMethodDoc> {
    return this.own<AuthMethodDoc>(Collections.authMethods, 'AuthMethod', 'AUTH_METHOD', platformId, id);
  }

  /** A session of the caller's platform (any status), or 404. */
  session(platformId: string, id: string): Promise<AuthSessionDoc> {
    return this.own<AuthSessionDoc>(Collections.authSessions, 'Session', 'SESSION', platformId, id);
  }

  private async own<T extends Doc & { platformId: string }>(
    collection: string,
    kind: ResourceKind,
    resource: string,
    platformId: string,
    id: string,
  ): Promise<T> {
    const doc = isPublicId(kind, id) ? await this.store.get<T>(collection, id) : undefined;
    if (!doc || doc.platformId !== platformId) throw notFound(resource, id);
    return doc;
  }

  private async find<T extends Doc>(collection: string, platformId: string, filters: Filter[]): Promise<T[]> {
    const page = await this.store.find<T>(collection, {
      filters: [{ field: 'platformId', op: 'eq', value: platformId }, ...filters],
      sortBy: 'createdAt',
      sortOrder: 'asc',
      limit: LIST_LIMIT,
    });
    return page.data;
  }
}
