/**
 * Deterministic sample bytes: the same `(size, seed)` always gives the same bytes, produced on the
 * fly in 64 KiB chunks (nothing is held but one 1 MiB pattern). The emulator serves them at
 * `/samples/<name>?size=N[&rate=BYTES_PER_SECOND]` as sources for remote uploads, and tests use them to
 * send big files without keeping them anywhere.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;
const PATTERN = 1024 * 1024;

function pattern(seed: string): Buffer {
  const out = Buffer.alloc(PATTERN);
  let block = createHash('sha256').update(seed).digest();
  for (let offset = 0; offset < PATTERN; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** The chunks of a deterministic sample of `size` bytes. */
export function* sampleChunks(size: number, seed = 'deckhand'): Generator<Buffer> {
  const base = pattern(seed);
  for (let index = 0, offset = 0; offset < size; index++, offset += CHUNK) {
    const length = Math.min(CHUNK, size - offset);
    const start = (index * CHUNK) % PATTERN;
    const chunk = Buffer.from(base.subarray(start, start + length));
    // The chunk number makes the stream aperiodic, so a lost or repeated chunk changes the hash.
    if (length >= 8) chunk.writeBigUInt64BE(BigInt(index), 0);
    yield chunk;
  }
}

/** A deterministic sample as a stream, optionally paced to `bytesPerSecond`. */
export function sampleStream(
  size: number,
  options: { seed?: string; bytesPerSecond?: number } = {},
): Readable {
  const chunks = sampleChunks(size, options.seed);
  const rate = options.bytesPerSecond;
  if (!rate) return Readable.from(chunks, { objectMode: false });
  async function* paced() {
    const started = Date.now();
    let sent = 0;
    for (const chunk of chunks) {
      const due = started + (sent / (rate as number)) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sent += chunk.length;
      yield chunk;
    }
  }
  return Readable.from(paced(), { objectMode: false });
}

/** The sha256 (hex) of a deterministic sample, computed the same way, without keeping it. */
export function sampleSha256(size: number, seed?: string): string {
  const hash = createHash('sha256');
  for (const chunk of sampleChunks(size, seed)) hash.update(chunk);
  return hash.digest('hex');
}
