/**
 * Counts the calls of one method of an object (e.g. `multi` or `pipeline` of an ioredis client: one
 * per round trip) through a proxy that otherwise behaves as the object itself.
 */
export function countCalls<T extends object>(
  target: T,
  method: keyof T & string,
): { counted: T; calls(): number } {
  let calls = 0;
  const counted = new Proxy(target, {
    get(object, name) {
      const value = Reflect.get(object, name, object);
      if (name === method) calls += 1;
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  return { counted, calls: () => calls };
}
