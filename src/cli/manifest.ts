import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import { createLogger } from '../log';
import { commandRegistry, MANIFESTS, REGISTRARS } from '../wiring/catalogue';

/** `deckhand manifest [platform|all]`: writes the generated manifests under `manifest/`. */
export function runManifest(config: Config, which: string | undefined, root = process.cwd()): number {
  const names = which && which !== 'all' ? [which] : Object.keys(MANIFESTS);
  for (const name of names) {
    if (!(name in MANIFESTS)) {
      process.stderr.write(`Unknown platform "${name}": choose slack, discord, telegram or all.\n`);
      return 2;
    }
    const spec = MANIFESTS[name as keyof typeof MANIFESTS];
    if (!spec) {
      process.stderr.write(`No manifest is generated for ${name} yet.\n`);
      continue;
    }
    const path = join(root, 'manifest', spec.file);
    writeFileSync(path, `${JSON.stringify(spec.build(commandRegistry(), config), null, 2)}\n`);
    process.stdout.write(`wrote ${path}\n`);
  }
  return 0;
}

/** `deckhand register <discord|telegram> [--guild ID]`: registers the commands with the platform. */
export async function runRegister(
  config: Config,
  which: string | undefined,
  guild: string | undefined,
): Promise<number> {
  const register = which === 'discord' || which === 'telegram' ? REGISTRARS[which] : undefined;
  if (!register) {
    process.stderr.write(
      `Registering commands works for discord and telegram${which ? `, not "${which}"` : ''}.\n`,
    );
    return 2;
  }
  const logger = createLogger({ level: config.LOG_LEVEL });
  const summary = await register(commandRegistry(), config, { ...(guild ? { guild } : {}), logger });
  process.stdout.write(`${summary}\n`);
  return 0;
}
