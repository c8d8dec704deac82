import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { runStart } from '../../src/cli/start';
import { loadConfig } from '../../src/config';
import { PendingLinkStore } from '../../src/store/links';
import { MISSING_SECRET_KEY, Sealer, sealerKeys, VaultLockedError } from '../../src/store/sealer';
import { CredentialVault } from '../../src/store/vault';
import { Credentials } from '../../src/store/vault-credentials';
import { storedUnder, testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
const prefix = testPrefix();
const owner = { platform: 'slack', workspace: 'T1', id: 'UVAULT' };
const key = () => randomBytes(32);

useTestRedis((opened) => {
  redis = opened;
});

/** Every key and value stored under the test prefix, as raw Redis strings. */
const everythingStored = () => storedUnder(redis, prefix);

describe('credential vault', () => {
  it('stores AES-256-GCM ciphertext: no secret, login or service detail is readable in Redis', async () => {
    const vault = new CredentialVault(redis, new Sealer({ current: key() }), prefix);
    await vault.put(owner, 'calendar', {
      secret: { applicationPassword: 'abcd efgh ijkl mnop' },
      meta: { username: 'editor-jane' },
    });
    await vault.put(owner, 'source', {
      secret: { token: 'gho_plaintextcheck123456' },
      meta: { login: 'mona' },
    });
    const stored = await everythingStored();
    expect(stored).toMatch(/v1\.[0-9a-f]{8}\./);
    for (const plain of ['abcd efgh ijkl mnop', 'editor-jane', 'gho_plaintextcheck123456', 'mona']) {
      expect(stored).not.toContain(plain);
    }
    expect(await vault.get(owner, 'source')).toMatchObject({ secret: { token: 'gho_plaintextcheck123456' } });
    expect((await vault.list(owner)).map((e) => e.service)).toEqual(['calendar', 'source']);
    expect(JSON.stringify(await vault.list(owner))).not.toContain('abcd efgh');
  });

  it('fails closed with a wrong key: nothing is returned, and the error names the fix, not the value', async () => {
    const right = new CredentialVault(redis, new Sealer({ current: key() }), prefix);
    const other = { ...owner, id: 'UWRONG' };
    await right.put(other, 'media', { secret: { apiKey: 'media-key-0123456789' }, meta: {} });
    const wrong = new CredentialVault(redis, new Sealer({ current: key() }), prefix);
    const error = await wrong.get(other, 'media').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultLockedError);
    expect((error as Error).message).not.toContain('media-key');
    expect((error as VaultLockedError).hint).toContain('SECRET_KEY_PREVIOUS');
    await expect(
      new Credentials(wrong, { MEDIA_API_KEY: 'shared-key-not-a-fallback' }).media(other),
    ).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('a ciphertext moved to another user or service does not open', async () => {
    const vault = new CredentialVault(redis, new Sealer({ current: key() }), prefix);
    const a = { ...owner, id: 'UA' };
    const b = { ...owner, id: 'UB' };
    await vault.put(a, 'tool:mytool', { secret: { token: 'deploy-token-of-a-0001' }, meta: {} });
    const sealed = (await redis.hget(vault.key(a), 'tool:mytool')) as string;
    await redis.hset(vault.key(b), 'tool:mytool', sealed);
    await redis.hset(vault.key(a), 'media', sealed);
    await expect(vault.get(b, 'tool:mytool')).rejects.toBeInstanceOf(VaultLockedError);
    await expect(vault.get(a, 'media')).rejects.toBeInstanceOf(VaultLockedError);
  });

  it('rotates: SECRET_KEY_PREVIOUS opens old values, which are sealed again with the new key', async () => {
    const oldKey = key();
    const newKey = key();
    const user = { ...owner, id: 'UROTATE' };
    await new CredentialVault(redis, new Sealer({ current: oldKey }), prefix).put(user, 'media', {
      secret: { apiKey: 'rotating-key-0123' },
      meta: {},
    });
    const rotated = new CredentialVault(redis, new Sealer({ current: newKey, previous: [oldKey] }), prefix);
    expect((await rotated.get(user, 'media'))?.secret.apiKey).toBe('rotating-key-0123');
    const onlyNew = new CredentialVault(redis, new Sealer({ current: newKey }), prefix);
    expect((await onlyNew.get(user, 'media'))?.secret.apiKey).toBe('rotating-key-0123');
  });

  it('reads keys from the configuration, derives a development key only where allowed', () => {
    const hex = randomBytes(32).toString('hex');
    const b64 = randomBytes(32).toString('base64');
    const keys = sealerKeys({ SECRET_KEY: hex, SECRET_KEY_PREVIOUS: b64, DATA_DIR: '/tmp/x' }, false);
    expect(keys.current.toString('hex')).toBe(hex);
    expect(keys.previous?.[0]?.toString('base64')).toBe(b64);
    expect(keys.development).toBe(false);
    expect(() => sealerKeys({ DATA_DIR: '/tmp/x' }, false)).toThrow(MISSING_SECRET_KEY);
    const dev = sealerKeys({ DATA_DIR: '/tmp/x' }, true);
    expect(dev.development).toBe(true);
    expect(dev.current).toHaveLength(32);
    expect(sealerKeys({ DATA_DIR: '/tmp/x' }, true).current.equals(dev.current)).toBe(true);
  });

  it('pending OAuth links are sealed, single use, and unreadable with a wrong key', async () => {
    const store = new PendingLinkStore(redis, new Sealer({ current: key() }), prefix);
    const state = await store.create({
      owner,
      name: 'u',
      conversationId: 'slack:T1:C1',
      isPrivate: false,
      scopes: ['read:user'],
      codeVerifier: 'verifier-secret-value-000000000000000',
      redirectUri: 'http://127.0.0.1/cb',
      createdAt: Date.now(),
    });
    expect(await everythingStored()).not.toContain('verifier-secret-value');
    expect((await store.take(state))?.codeVerifier).toBe('verifier-secret-value-000000000000000');
    expect(await store.take(state)).toBeUndefined();
  });

  it.each([
    { TELEGRAM_BOT_TOKEN: '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ' },
    {
      MATRIX_HOMESERVER_URL: 'http://127.0.0.1:9',
      MATRIX_USER_ID: '@deckhand:example.org',
      MATRIX_ACCESS_TOKEN: 'syt_token',
    },
  ])(
    'deckhand start with a chat platform and no SECRET_KEY stops with a clear message (%o)',
    async (platformEnv) => {
      const written: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
      try {
        const config = loadConfig({
          ...platformEnv,
          DATA_DIR: mkdtempSync(join(tmpdir(), 'deckhand-vault-')),
          LOG_LEVEL: 'silent',
        });
        expect(await runStart({ config, sandbox: true, role: 'all' })).toBe(2);
      } finally {
        spy.mockRestore();
      }
      expect(written.join('')).toContain('SECRET_KEY is not set');
      expect(written.join('')).toContain('openssl rand -hex 32');
    },
  );
});
