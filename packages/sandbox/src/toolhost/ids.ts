/** Identifiers and timestamps in the formats the real services produce. */
import { createHash, randomInt } from 'node:crypto';

/** Alphabet of Kubernetes `generateName` suffixes (no vowels, no look-alikes). */
const K8S_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomString(length: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A build id: `<tool>-buildpacks-pipelinerun-<5 random>` (a Tekton PipelineRun generateName). */
export function newBuildId(tool: string): string {
  return `${tool}-buildpacks-pipelinerun-${randomString(5, K8S_ALPHABET)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYYmmdd-HHMMSS` in UTC, the components `creation_time` format. */
export function compactUtc(date: Date): string {
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}-` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** A deployment id: `YYYYmmdd-HHMMSS-<10 random chars>`. */
export function newDeployId(date: Date): string {
  return `${compactUtc(date)}-${randomString(10, ALNUM)}`;
}

/** RFC 3339 without milliseconds, as Go's `time.RFC3339` prints it. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stable fake commit SHA for `source_url` at `ref` (what `git ls-remote` would resolve). */
export function fakeCommit(sourceUrl: string, ref: string): string {
  return createHash('sha1').update(`${sourceUrl}#${ref}`).digest('hex');
}

/** A stable fake image digest. */
export function fakeDigest(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}
