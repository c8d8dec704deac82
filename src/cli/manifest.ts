import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import { createLogger } from '../log';
import { commandRegistry } from '../wiring/catalogue';
import { listed, MANIFEST_PLATFORMS, manifestOf, REGISTER_PLATFORMS, registrarOf } from '../wiring/platforms';

/** `deckhand manifest [platform|all]`: writes the generated manifests under `manifest/`. */
export async function runManifest(
  config: Config,
  which: string | undefined,
  root = process.cwd(),
): Promise<number> {
  const known = MANIFEST_PLATFORMS.map((platform) => platform.name);
  const names = which && which !== 'all' ? [which] : known;
  for (const name of names) {
    if (!known.includes(name)) {
      process.stderr.write(`Unknown platform "${name}": choose ${listed([...known, 'all'])}.\n`);
      return 2;
    }
    const spec = await manifestOf(name);
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

/** `deckhand register <platform> [--guild ID]`: registers the commands with the platform. */
export async function runRegister(
  config: Config,
  which: string | undefined,
  guild: string | undefined,
): Promise<number> {
  const register = which ? await registrarOf(which) : undefined;
  if (!register) {
    const names = REGISTER_PLATFORMS.map((platform) => platform.name);
    process.stderr.write(
      `Registering commands works for ${listed(names, 'and')}${which ? `, not "${which}"` : ''}.\n`,
    );
    return 2;
  }
  const logger = createLogger({ level: config.LOG_LEVEL });
  const summary = await register(commandRegistry(), config, { ...(guild ? { guild } : {}), logger });
  process.stdout.write(`${summary}\n`);
  return 0;
}
