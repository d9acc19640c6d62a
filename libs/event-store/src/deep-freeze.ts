/** Freezes an object and everything it holds (parts already frozen, such as those of a document read back, stop it). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  // for…in over a plain object or an array visits its own members without building an array of them.
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
