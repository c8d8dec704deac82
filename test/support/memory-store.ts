import type { KeyValueStore } from '../../src/core/host';

/** An in-memory {@link KeyValueStore}: an adapter's own state without Redis, for unit tests. */
export function memoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    take: async (key) => {
      const value = values.get(key);
      values.delete(key);
      return value;
    },
    delete: async (key) => values.delete(key),
  };
}
