/** Polls `predicate` until it returns a truthy value or `timeoutMs` passes; returns that value. */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await predicate();
    if (last) return last as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`waitFor timed out after ${timeoutMs} ms (last value: ${JSON.stringify(last)})`);
}
