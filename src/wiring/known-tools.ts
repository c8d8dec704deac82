/** The tools Deckhand knows of, for hints that name a tool ("Did you mean `/logs mytool web`?"). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';

/**
 * The emulator's tools when one runs; otherwise the tools named in the configuration (deploy tokens,
 * maintainers) and those with a client certificate in `TOOLHOST_CERT_DIR`, read at each call.
 */
export function configuredTools(config: Config, sandboxTools?: () => Iterable<string>): () => string[] {
  return () => {
    if (sandboxTools) return [...sandboxTools()].sort();
    const tools = new Set<string>();
    for (const entry of [...config.TOOLHOST_DEPLOY_TOKENS, ...config.TOOL_MAINTAINERS]) {
      tools.add(entry.slice(0, entry.indexOf('=')));
    }
    const dir = config.TOOLHOST_CERT_DIR;
    if (dir && existsSync(dir)) {
      for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'client.crt'))) tools.add(name);
    }
    return [...tools].sort();
  };
}

/** The tools the sandbox knows (the in-process one's, else the emulators process's), when there is one. */
export function sandboxToolList(
  sandbox: { ctx: { tools: Iterable<string> } } | undefined,
  emulated: { tools: readonly string[] } | undefined,
): (() => Iterable<string>) | undefined {
  if (sandbox) return () => sandbox.ctx.tools;
  return emulated?.tools.length ? () => emulated.tools : undefined;
}
