/** Drops undefined members, so resources, snapshots and updates carry only what is set. */
export function compact<T extends object>(value: T): T {
  // A loop rather than entries/filter/fromEntries: a replay builds a resource for every transaction event.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = member;
  }
  return out as T;
}
