/**
 * Discord's rendering of the core's autocomplete values (`src/core/suggestions.ts`): at most 25
 * choices, each name at most 100 characters (specs/platforms/discord-openapi.json,
 * `ApplicationCommandOptionStringChoice.name` maxLength 100); values are cut to 100 as well, so a
 * choice always shows the whole value it fills in.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../src/config';

/** One autocomplete choice. */
export interface Choice {
  name: string;
  value: string;
}

/** Discord allows at most 25 choices. */
const MAX_CHOICES = 25;

/** The first 25 values as Discord choices, cut to 100 characters. */
export function choicesOf(values: readonly string[]): Choice[] {
  return values
    .slice(0, MAX_CHOICES)
    .map((value) => ({ name: value.slice(0, 100), value: value.slice(0, 100) }));
}

/**
 * The tools Deckhand can act for: the sandbox's tools, or those with a client certificate in
 * `TOOLHOST_CERT_DIR`, a bot-wide deploy token, or configured maintainers.
 */
export function knownTools(config: Config, sandboxTools?: () => Iterable<string>): () => string[] {
  return () => {
    if (sandboxTools) return [...sandboxTools()].sort();
    const tools = new Set<string>();
    for (const entry of config.TOOLHOST_DEPLOY_TOKENS) tools.add(entry.slice(0, entry.indexOf('=')));
    for (const entry of config.TOOL_MAINTAINERS) tools.add(entry.slice(0, entry.indexOf('=')));
    const dir = config.TOOLHOST_CERT_DIR;
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'client.crt'))) tools.add(name);
    }
    return [...tools].sort();
  };
}
