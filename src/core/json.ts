/** JSON read leniently: what `text` holds, or undefined when it is empty or not JSON. */
export function readJson<T = unknown>(text: string | null | undefined): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
