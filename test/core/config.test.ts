import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, wantsSandbox } from '../../src/config';

describe('config', () => {
  it('uses the documented defaults for an empty environment, and the sandbox', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.REDIS_KEY_PREFIX).toBe('dh:');
    expect(config.ADMINS).toEqual([]);
    expect(wantsSandbox(config, false)).toBe(true);
  });

  it('reads lists and a real platform', () => {
    const config = loadConfig({
      TOOLHOST_URL: 'https://api.svc.toolforge.org',
      TOOLHOST_DEPLOY_TOKENS: 'mytool=0b5c2c6e-1111-4222-8333-944445555666, demo=abc-def',
      ADMINS: 'slack:U1,discord:42',
    });
    expect(config.TOOLHOST_DEPLOY_TOKENS).toEqual([
      'mytool=0b5c2c6e-1111-4222-8333-944445555666',
      'demo=abc-def',
    ]);
    expect(config.ADMINS).toEqual(['slack:U1', 'discord:42']);
    expect(wantsSandbox(config, false)).toBe(false);
    expect(wantsSandbox(config, true)).toBe(true);
  });

  it('names every bad variable and what it expects, without echoing secret values', () => {
    try {
      loadConfig({ PORT: 'eighty', TOOLHOST_URL: 'not a url', SECRET_KEY: 'hunter2hunter2', ADMINS: 'U1' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toMatch(/PORT: /);
      expect(message).toMatch(/TOOLHOST_URL: must be an absolute URL/);
      expect(message).toMatch(/SECRET_KEY: must be 32 random bytes/);
      expect(message).toMatch(/ADMINS: each entry must look like slack:U0123ABCD/);
      expect(message).not.toContain('hunter2');
      return;
    }
    throw new Error('expected a ConfigError');
  });
});
