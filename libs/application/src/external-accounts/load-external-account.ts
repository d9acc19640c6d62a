import { notFound } from '#domain/errors.js';
import { externalAccountDecider, type ExistingExternalAccount } from '#domain/external-account/external-account.js';
import { streams, uuidOf } from '#domain/ids.js';
import type { CommandRunner } from '../command-runner.js';

/** The stream of an external account id, or a 404 that does not reveal whether the id exists elsewhere. */
export function externalAccountStream(id: string): string {
  if (!uuidOf('ExternalAccount', id)) throw notFound('EXTERNAL_ACCOUNT', id);
  return streams.externalAccount(id);
}

/** A live external account of this platform (customer's or the platform's own); 404 otherwise. */
export async function loadExternalAccount(
  runner: CommandRunner,
  id: string,
  platformId: string,
): Promise<ExistingExternalAccount> {
  const { state } = await runner.load(externalAccountStream(id), externalAccountDecider);
  if (!state.exists || state.platformId !== platformId || state.status === 'DELETED')
    throw notFound('EXTERNAL_ACCOUNT', id);
  return state;
}
