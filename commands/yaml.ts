/**
 * The `yaml` package, loaded on first use: most processes (a `--role web` that only queues commands)
 * never read or write YAML, and the library costs several MB of memory once imported. Its CommonJS
 * build is required synchronously, so the callers stay synchronous.
 */
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

const require = createRequire(import.meta.url);
let loaded: Yaml | undefined;

function yaml(): Yaml {
  loaded ??= require('yaml') as Yaml;
  return loaded;
}

/** `yaml`'s `parse`. */
export const parse: Yaml['parse'] = ((...args: Parameters<Yaml['parse']>) =>
  yaml().parse(...args)) as Yaml['parse'];

/** `yaml`'s `stringify`. */
export const stringify: Yaml['stringify'] = ((...args: Parameters<Yaml['stringify']>) =>
  yaml().stringify(...args)) as Yaml['stringify'];
