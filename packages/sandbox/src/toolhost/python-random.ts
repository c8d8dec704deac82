/**
 * Python's `random` module, as far as the jobs API uses it to spread macro schedules: `random.seed(str)`
 * then `random.randint(a, b)` (J `tjf/core/cron.py CronExpression.parse`). CPython's Mersenne Twister
 * (`Modules/_randommodule.c`: `init_by_array`, `genrand_uint32`, `getrandbits`) and its seeding of a
 * string (`Lib/random.py seed`, version 2: the bytes followed by their SHA-512, read as one big-endian
 * integer, fed as 32-bit words from the least significant), so `@daily` of a job gets the very
 * `schedule_actual` the platform gives it.
 */
import { createHash } from 'node:crypto';

const N = 624;
const M = 397;

/** A CPython `random.Random` seeded with a string. */
export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: string) {
    const bytes = Buffer.from(seed, 'utf8');
    const all = Buffer.concat([bytes, createHash('sha512').update(bytes).digest()]);
    // Big-endian integer → 32-bit words, least significant first (leading zero words dropped).
    const words: number[] = [];
    for (let end = all.length; end > 0; end -= 4) {
      const start = Math.max(0, end - 4);
      let word = 0;
      for (let i = start; i < end; i++) word = ((word << 8) | (all[i] as number)) >>> 0;
      words.push(word);
    }
    while (words.length > 1 && words[words.length - 1] === 0) words.pop();
    this.initByArray(words.length ? words : [0]);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] as number;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] =
        ((((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1664525)) >>> 0) + (key[j] as number) + j) >>>
        0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] as number;
      mt[i] = ((((mt[i] as number) ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) >>> 0) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1] as number;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk++) {
      const y = ((mt[kk] as number) & 0x80000000) | ((mt[(kk + 1) % N] as number) & 0x7fffffff);
      mt[kk] = ((mt[(kk + M) % N] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
    }
    this.index = 0;
  }

  /** `genrand_uint32`. */
  uint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `randint(a, b)` for a span under 2³² (`_randbelow_with_getrandbits`). */
  randint(a: number, b: number): number {
    const n = b - a + 1;
    const bits = Math.floor(Math.log2(n)) + 1;
    let r = this.uint32() >>> (32 - bits);
    while (r >= n) r = this.uint32() >>> (32 - bits);
    return a + r;
  }
}
