import { afterEach, beforeEach, jest } from '@jest/globals';

/** Jest's fake timers for each test of the enclosing `describe` (or file), real ones again after each. */
export function useFakeTimers(): void {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });
}
