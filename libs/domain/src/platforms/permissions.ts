import { invalid } from '../errors.js';

/**
 * API token permissions, as the public API names them. Its definitions imply limits, so they are enforced:
 * VIEW reads (every GET), TRANSACT sends payments (quotes and their execution, transfers, approvals of
 * payments, sandbox money simulations), MANAGE changes everything else (platform configuration, API
 * tokens, customers and their accounts, cards, webhooks). Embedded wallet authentication (/auth/...) serves
 * both payments and account management: TRANSACT or MANAGE. Tokens stored before permissions existed, and
 * tokens created without any, hold all three.
 */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const TRANSACT_PATHS: RegExp[] = [
  /^\/quotes(\/|$)/,
  /^\/transactions\/[^/]+\/(approve|reject)$/,
  /^\/transfer-(in|out)$/,
  /^\/sandbox\/(send|uma\/receive)$/,
  /^\/sandbox\/internal-accounts\/[^/]+\/fund$/,
  /^\/sandbox\/cards\//,
  /^\/agents\/[^/]+\/actions\/[^/]+\/(approve|reject)$/,
];

/** The permissions any one of which lets a token make this request (`path` without the version prefix). */
export function acceptedPermissions(method: string, path: string): Permission[] {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return ['VIEW'];
  if (TRANSACT_PATHS.some((p) => p.test(path))) return ['TRANSACT'];
  if (path.startsWith('/auth/')) return ['TRANSACT', 'MANAGE'];
  return ['MANAGE'];
}

/** Whether a token's permissions (absent: a token from before permissions, which holds all) allow a request. */
export function permits(granted: readonly Permission[] | undefined, accepted: readonly Permission[]): boolean {
  return accepted.some((p) => (granted ?? PERMISSIONS).includes(p));
}

/** A token's permissions as given on create: at least one, each known, none twice; all three when omitted. */
export function tokenPermissions(given: readonly string[] | undefined): Permission[] {
  if (given === undefined) return [...PERMISSIONS];
  const unknown = given.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (given.length === 0 || unknown.length > 0 || new Set(given).size !== given.length)
    throw invalid(
      'INVALID_INPUT',
      `permissions must be distinct values among ${PERMISSIONS.join(', ')} (at least one)`,
      'permissions',
    );
  return given as Permission[];
}
