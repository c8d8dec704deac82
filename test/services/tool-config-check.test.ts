import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkToolConfig } from '../../src/services/toolhost';

const ROOT = join(import.meta.dirname, '..', '..');
const build = { repository: 'https://gitlab.wikimedia.org/toolforge-repos/sample', ref: 'main' };
const config = (components: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  config_version: 'v1beta1',
  components,
  ...extra,
});

describe('the components configuration check (before anything is sent)', () => {
  it('uses the very schema the components API publishes (specs/ copy)', () => {
    const copy = readFileSync(join(ROOT, 'src/services/toolhost/tool-config-schema.json'), 'utf8');
    const spec = readFileSync(join(ROOT, 'specs/toolforge/components-tool-config-schema.json'), 'utf8');
    expect(JSON.parse(copy)).toEqual(JSON.parse(spec));
  });

  it('accepts a continuous and a scheduled component reusing its build', () => {
    const result = checkToolConfig(
      config({
        web: { component_type: 'continuous', build, run: { command: 'web', port: 8000, publish: '/' } },
        nightly: {
          component_type: 'scheduled',
          build: { reuse_from: 'web' },
          run: { command: 'x', schedule: '@daily' },
        },
      }),
    );
    expect(result).toMatchObject({ ok: true, unknownFields: [] });
  });

  it('names each wrong field by its path, for the shape that was meant', () => {
    const result = checkToolConfig(
      config({
        web: {
          component_type: 'continuous',
          build: { ...build, repository: 'not a url' },
          run: { command: 'web', port: '80' },
        },
      }),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'components → web → build → repository: Invalid URL',
        'components → web → run → port: expected number, received string',
      ],
    });
  });

  it('applies the model rules the schema cannot say (C components/models/api_models.py)', () => {
    const problems = (components: Record<string, unknown>) => {
      const result = checkToolConfig(config(components));
      return result.ok ? [] : result.problems;
    };
    expect(problems({ web: { build, run: { command: 'w', health_check_http: '/h' } } })).toEqual([
      'components → web → run: health_check_http needs a tcp port (add port)',
    ]);
    expect(
      problems({ web: { build, run: { command: 'w', port: 53, port_protocol: 'udp', publish: '/' } } }),
    ).toEqual(['components → web → run: publish needs port_protocol tcp']);
    expect(problems({ a: { build: { reuse_from: 'b' }, run: { command: 'x' } } })).toEqual([
      'reuse_from names component b, which is not in the configuration',
    ]);
    expect(
      problems({
        a: { build, run: { command: 'x' } },
        b: { build: { reuse_from: 'a' }, run: { command: 'y' } },
        c: { build: { reuse_from: 'b' }, run: { command: 'z' } },
      }),
    ).toEqual(['component b is reused by others, so it must build from source, not reuse_from']);
  });

  it('lists unknown fields as the platform words them, and leaves them out of what is sent', () => {
    const result = checkToolConfig(
      config(
        { web: { build: { ...build, cache: true }, run: { command: 'w', restart: 'always' } } },
        { owner: 'me' },
      ),
    );
    expect(result.ok && result.unknownFields).toEqual([
      'components.web.build.cache',
      'components.web.run.restart',
      'owner',
    ]);
    expect(result.ok && result.config).toEqual(config({ web: { build, run: { command: 'w' } } }));
  });

  it('refuses what is not a configuration at all', () => {
    expect(checkToolConfig(['a'])).toMatchObject({ ok: false });
    expect(checkToolConfig('text')).toMatchObject({ ok: false });
    expect(checkToolConfig(config({}))).toMatchObject({ ok: false });
  });
});
