import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Redis } from 'ioredis';

/** Reads `SECRET_KEY` (64 hex digits or base64 of 32 bytes). */
export function secretKeyBytes(secretKey: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(secretKey)
    ? Buffer.from(secretKey, 'hex')
    : Buffer.from(secretKey, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes');
  return key;
}

function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(
    '.',
  );
}

function open(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined)
    throw new Error('unreadable installation record');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/**
 * Bolt's installation store in Redis: one record per workspace (or per org for org-wide installs),
 * encrypted with AES-256-GCM under `SECRET_KEY`, since it holds bot tokens.
 */
export class RedisInstallationStore implements InstallationStore {
  private readonly key: Buffer;

  constructor(
    private readonly redis: Redis,
    secretKey: string,
    private readonly prefix = 'dh:',
  ) {
    this.key = secretKeyBytes(secretKey);
  }

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const id =
      installation.isEnterpriseInstall && installation.enterprise
        ? `E:${installation.enterprise.id}`
        : `T:${installation.team?.id}`;
    await this.redis.set(this.redisKey(id), seal(this.key, JSON.stringify(installation)));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    for (const id of this.ids(query)) {
      const sealed = await this.redis.get(this.redisKey(id));
      if (sealed) return JSON.parse(open(this.key, sealed)) as Installation<'v1' | 'v2', boolean>;
    }
    throw new Error(`Deckhand is not installed in Slack workspace ${query.teamId ?? query.enterpriseId}`);
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    for (const id of this.ids(query)) await this.redis.del(this.redisKey(id));
  }

  private ids(query: InstallationQuery<boolean>): string[] {
    const ids: string[] = [];
    if (query.isEnterpriseInstall && query.enterpriseId) ids.push(`E:${query.enterpriseId}`);
    if (query.teamId) ids.push(`T:${query.teamId}`);
    if (!query.isEnterpriseInstall && query.enterpriseId) ids.push(`E:${query.enterpriseId}`);
    return ids;
  }

  private redisKey(id: string): string {
    return `${this.prefix}slack:installation:${id}`;
  }
}
