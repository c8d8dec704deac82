/**
 * The table of platforms: one line per `adapters/<platform>/` folder. Config, wiring, the CLI and
 * `deckhand doctor` iterate over it; adding a platform is its folder plus one line here. Loads no SDK
 * (each descriptor loads its adapter on demand).
 */
import type { PlatformDescriptor } from './descriptor';
import { discord } from './discord';
import { irc } from './irc';
import { matrix } from './matrix';
import type { PLATFORM_NAMES } from './platform-names';
import { terminal } from './shell';
import { slack } from './slack';
import { telegram } from './telegram';

/** Every platform, in the order help, docs and `doctor` list them. */
export const PLATFORMS = [slack, discord, telegram, irc, matrix, terminal] as const;

/** A platform's name (`PLATFORMS[n].name`). */
export type PlatformName = (typeof PLATFORMS)[number]['name'];

/** The names of a list of descriptors, in its order. */
type NamesOf<T extends readonly { name: string }[]> = {
  [K in keyof T]: T[K] extends { name: infer N } ? N : never;
};

/**
 * The dependency-free list of names (./platform-names.ts) is this table's, in its order: a type
 * error otherwise, either way round.
 */
const NAMES_AGREE: [NamesOf<typeof PLATFORMS>, typeof PLATFORM_NAMES] extends [
  typeof PLATFORM_NAMES,
  NamesOf<typeof PLATFORMS>,
]
  ? true
  : never = true;
void NAMES_AGREE;

/** The terminal chat, which `start` opens when no chat platform is configured. */
export const TERMINAL: PlatformDescriptor = terminal;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** Every platform's environment variables, as one fragment. */
export type PlatformEnv = UnionToIntersection<(typeof PLATFORMS)[number]['env']>;

/** The platforms' variables merged, in table order (for the configuration schema). */
export function platformEnv(): PlatformEnv {
  return Object.assign({}, ...PLATFORMS.map((platform) => platform.env)) as PlatformEnv;
}

/** The descriptor of `name`, or `undefined` for a name no platform has. */
export function platformNamed(name: string): PlatformDescriptor | undefined {
  return PLATFORMS.find((platform) => platform.name === name);
}
