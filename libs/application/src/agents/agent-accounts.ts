import { authorizeAccounts, type NamedAccount } from '#domain/agents/agent-policy.js';
import type { ExistingAgent } from '#domain/agents/agent-types.js';
import { notFound } from '#domain/errors.js';
import { isPublicId } from '#domain/primitives.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { CommandRunner } from '../command-runner.js';
import { getForPlatform } from '../queries/list-query.js';
import {
  loadCustomerAccount,
  loadLiveExternalAccount,
  type LiveExternalAccount,
  type OwnedInternalAccount,
} from '../payments/transactions/payment-accounts.js';
import { loadOwnAgent, type AgentPrincipal } from './agent-access.js';

/** An account a request names, and the request field that names it. */
export interface AccountEnd {
  accountId: string;
  field: string;
}

/**
 * Every account an agent's request names (source and destination, internal and external) goes through here: its
 * owner is read and judged by the policy's `authorizeAccounts` (another customer's or the platform's own answers 404
 * as if it did not exist; an internal account outside allowedAccountIds 403) before anything else is looked at.
 * Answers the accounts in the order given.
 */
export async function agentAccounts(
  deps: { runner: CommandRunner; readModels: ReadModelStore },
  agent: AgentPrincipal,
  ends: AccountEnd[],
  agentState?: ExistingAgent,
): Promise<(OwnedInternalAccount | LiveExternalAccount)[]> {
  const { runner, readModels } = deps;
  const state = agentState ?? (await loadOwnAgent(runner, agent.agentId, agent.platformId));
  const named = await Promise.all(ends.map(({ accountId }) => owner(deps, agent.platformId, accountId)));
  authorizeAccounts(state, named);
  return Promise.all(
    ends.map(({ accountId, field }, i) =>
      named[i].kind === 'INTERNAL'
        ? loadCustomerAccount(runner, readModels, accountId, agent.platformId, field)
        : loadLiveExternalAccount(runner, accountId, agent.platformId),
    ),
  );
}

/** Who owns an account of this platform (404 for an id of none of its accounts). */
async function owner(
  deps: { runner: CommandRunner; readModels: ReadModelStore },
  platformId: string,
  accountId: string,
): Promise<NamedAccount> {
  if (isPublicId('ExternalAccount', accountId)) {
    const { customerId } = await loadLiveExternalAccount(deps.runner, accountId, platformId);
    return { id: accountId, kind: 'EXTERNAL', ...(customerId ? { customerId } : {}) };
  }
  if (!isPublicId('InternalAccount', accountId)) throw notFound('INTERNAL_ACCOUNT', accountId);
  const doc = await getForPlatform<InternalAccountDoc>(
    deps.readModels,
    Collections.internalAccounts,
    'INTERNAL_ACCOUNT',
    platformId,
    accountId,
  );
  return { id: accountId, kind: 'INTERNAL', ...(doc.customerId ? { customerId: doc.customerId } : {}) };
}

/**
 * The accounts of a quote (request): an ACCOUNT source and an ACCOUNT destination. A UMA_ADDRESS destination names
 * no account: it is a receiver of the UMA network outside this service (a lookup never resolves to a customer's
 * account), paid like a third party within the policy's limits.
 */
export function quoteEnds(
  source: { sourceType?: string; accountId?: string },
  destination: { destinationType: string; accountId?: string },
): AccountEnd[] {
  const ends: AccountEnd[] = [];
  if (source.sourceType !== 'REALTIME_FUNDING' && source.accountId)
    ends.push({ accountId: source.accountId, field: 'source.accountId' });
  if (destination.destinationType === 'ACCOUNT' && destination.accountId)
    ends.push({ accountId: destination.accountId, field: 'destination.accountId' });
  return ends;
}

/** A quote's destination when it is an internal account (of the agent's customer, once checked), else ''. */
export const internalDestinationOf = (d: { destinationType: string; accountId?: string }) =>
  d.destinationType === 'ACCOUNT' && d.accountId && isPublicId('InternalAccount', d.accountId) ? d.accountId : '';
