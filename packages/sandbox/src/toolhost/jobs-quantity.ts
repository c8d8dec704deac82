/**
 * Kubernetes quantities (`512Mi`, `100m`) as the jobs API parses, normalises and limits them.
 *
 * The real API normalises what it stores and returns: memory becomes Gi with up to three decimals
 * printed as a Python float (`512Mi` → `0.5Gi`, `1Gi` → `1.0Gi`), CPU becomes a plain Python float
 * (`100m` → `0.1`, `2` → `2.0`) (J `tjf/core/utils.py` `parse_and_format_mem`, `format_quantity`).
 */

const SUFFIXES: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([a-zA-Z]*)$/;

/** Parses a quantity to base units; throws an Error worded like the Kubernetes client's. */
export function parseQuantity(value: string): number {
  const match = QUANTITY.exec(value.trim());
  if (!match) throw new Error(`Invalid number format: ${value}`);
  const factor = SUFFIXES[match[2] ?? ''];
  if (factor === undefined) throw new Error(`${value} has unknown suffix`);
  return Number(match[1]) * factor;
}

/** Python's `str(float(x))`: integral values keep a `.0`. */
function pyFloat(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/** Memory as the API returns it: Gi, rounded to 3 decimals (`0.5Gi`). */
export function formatMemory(value: string): string {
  const gi = parseQuantity(value) / 2 ** 30;
  return `${pyFloat(Math.round(gi * 1000) / 1000)}Gi`;
}

/** CPU as the API returns it: cores as a float (`0.1`). */
export function formatCpu(value: string): string {
  return pyFloat(Number(parseQuantity(value).toPrecision(12)));
}

/** Per-container limits of a tool's namespace (the LimitRange every Toolforge tool gets). */
export const CONTAINER_LIMITS = { minCpu: '50m', maxCpu: '3', minMemory: '100Mi', maxMemory: '6Gi' } as const;

/**
 * The 400 message when a job's (normalised) cpu/memory falls outside the container limits, worded as
 * J `tjf/runtimes/k8s/ops.py validate_job_limits`; undefined when within.
 */
export function limitViolation(cpu: string, memory: string): string | undefined {
  const c = parseQuantity(cpu);
  if (c < parseQuantity(CONTAINER_LIMITS.minCpu)) {
    return `Requested CPU ${cpu} is less than minimum required per container (${CONTAINER_LIMITS.minCpu})`;
  }
  if (c > parseQuantity(CONTAINER_LIMITS.maxCpu)) {
    return `Requested CPU ${cpu} is over maximum allowed per container (${CONTAINER_LIMITS.maxCpu})`;
  }
  const m = parseQuantity(memory);
  if (m < parseQuantity(CONTAINER_LIMITS.minMemory)) {
    return `Requested memory ${memory} is less than minimum required per container (${CONTAINER_LIMITS.minMemory})`;
  }
  if (m > parseQuantity(CONTAINER_LIMITS.maxMemory)) {
    return `Requested memory ${memory} is over maximum allowed per container (${CONTAINER_LIMITS.maxMemory})`;
  }
  return undefined;
}
