import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { candidates } from '../../src/secret-match';
import { envvarIsSecret, looksLikeSecret } from '../../src/secrets';
import { AuditLog } from '../../src/store/audit';
import { configSecrets, SecretIndex } from '../../src/store/secret-index';
import { countCalls } from '../support/call-count';
import { storedUnder, testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
const key = randomBytes(32);
const prefix = testPrefix();

useTestRedis((opened) => {
  redis = opened;
});

/** Every key and value stored under the prefix, as one string. */
const everythingStored = () => storedUnder(redis, prefix);

describe('secret index', () => {
  const token = 'e3b0c442-98fc-1c14-9afb-f4c8996fb924';
  const appPassword = 'Sbx4 Cal7 Evt2 Pwd9 Dkh3 Nd8x';

  it('masks the exact value wherever it stands, and nothing else', async () => {
    const index = new SecretIndex(redis, { key, prefix });
    await index.register(token);
    await index.register(appPassword);
    const [a, b, c, d, e, f] = await index.scrubTexts([
      `Authorization: Bearer ${token}`,
      `curl "https://x.test/deploy?token=${token}&force=1"`,
      `password="${token}", next`,
      `using ${appPassword} now; compact ${appPassword.replaceAll(' ', '')}.`,
      `${token}x and x${token} are other values`,
      'running true 1 production mytool',
    ]);
    expect(a).toBe('Authorization: Bearer [redacted]');
    expect(b).toBe('curl "https://x.test/deploy?token=[redacted]&force=1"');
    expect(c).toBe('password="[redacted]", next');
    expect(d).toBe('using [redacted] now; compact [redacted].');
    expect(e).toBe(`${token}x and x${token} are other values`);
    expect(f).toBe('running true 1 production mytool');
  });

  it('keeps no plaintext in Redis, and a new instance on the same Redis (a restart) masks the same values', async () => {
    const stored = await everythingStored();
    expect(stored).toContain(`${prefix}secrets:`);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(appPassword.replaceAll(' ', ''));
    expect(stored).not.toContain('Sbx4');
    const restarted = new SecretIndex(redis, { key, prefix });
    expect(await restarted.scrubTexts([`log: ${token}`])).toEqual(['log: [redacted]']);
    // What it met is then known to its synchronous (log) masking too.
    expect(restarted.scrubKnown(`again ${token}`)).toBe('again [redacted]');
    const otherKey = new SecretIndex(redis, { key: randomBytes(32), prefix });
    expect(await otherKey.scrubTexts([`log: ${token}`])).toEqual([`log: ${token}`]);
  });

  it('asks Redis again only when the index changed: a redraw costs one round trip, and a secret registered by another process in between is masked', async () => {
    // Counts the round trips of the scrubbing instance (each lookup is one pipeline).
    const { counted, calls: pipelines } = countCalls(redis, 'pipeline');
    const drawing = new SecretIndex(counted, { key, prefix });
    const other = new SecretIndex(redis, { key, prefix });
    const fresh = `tok-${randomBytes(12).toString('hex')}`;
    const card = [`deployment 20261126-ab started with ${fresh} in the log`];
    expect(await drawing.scrubTexts(card)).toEqual(card);
    const first = pipelines();
    expect(first).toBe(2); // the words and version, then the memberships
    expect(await drawing.scrubTexts(card)).toEqual(card);
    expect(pipelines() - first).toBe(1); // the version only: every span already known
    await other.register(fresh);
    expect(await drawing.scrubTexts(card)).toEqual([
      'deployment 20261126-ab started with [redacted] in the log',
    ]);
    expect(pipelines() - first).toBe(3); // the version changed: the memberships asked again
  });

  it('registers envvar values by the rule: secret names or credential shapes only', async () => {
    expect(envvarIsSecret('APP_STATE', 'running')).toBe(false);
    expect(envvarIsSecret('DEBUG', 'true')).toBe(false);
    expect(envvarIsSecret('WORKERS', '1')).toBe(false);
    expect(envvarIsSecret('API_TOKEN', 'tok')).toBe(false);
    expect(envvarIsSecret('DB_PASSWORD', 'hunter2')).toBe(true);
    expect(envvarIsSecret('CLIENT_SECRET_FILE', 'abcdefgh')).toBe(true);
    expect(envvarIsSecret('UPSTREAM', 'aB3xY9kLmN2pQ7rS')).toBe(true);
    for (const plain of ['app-2024-production', 'https://example.org/ok.git', '/data/project/mytool/app.py'])
      expect(looksLikeSecret(plain), plain).toBe(false);
    for (const shaped of [token, 'ghp_abcdefghijklmnop1234', 'dXNlcjpwYXNzd29yZDEyMzQ='])
      expect(looksLikeSecret(shaped), shaped).toBe(true);

    const index = new SecretIndex(redis, { key, prefix });
    await index.registerEnvvar('mytool', 'APP_STATE', 'running');
    await index.registerEnvvar('mytool', 'DB_PASSWORD', 'hunter2');
    const all = 'all' as const;
    expect(await index.scrubTexts(['job running with hunter2'], { tool: 'mytool', untrusted: all })).toEqual([
      'job running with [redacted]',
    ]);
    expect(await index.scrubTexts(['job running with hunter2'], { tool: 'demo', untrusted: all })).toEqual([
      'job running with hunter2',
    ]);
  });

  it('takes the configured secrets (bot tokens, keys, tool=token lists), hashed in memory', async () => {
    const config = {
      SLACK_BOT_TOKEN: 'xoxb-1234567890-abcdefghij',
      TOOLHOST_DEPLOY_TOKENS: [`mytool=${token}`],
      SLACK_CLIENT_ID: '12345.67890',
      PORT: 3000,
    };
    expect(configSecrets(config)).toEqual([config.SLACK_BOT_TOKEN, `mytool=${token}`, token]);
    const index = new SecretIndex(redis, { key: randomBytes(32), prefix: testPrefix(), config });
    expect(index.scrubKnown(`posting with ${config.SLACK_BOT_TOKEN} as 12345.67890`)).toBe(
      'posting with [redacted] as 12345.67890',
    );
  });

  it('looks at a bounded number of candidates per character (linear in the text)', () => {
    const text = 'word key=value "quoted" a.b.c '.repeat(2000);
    const few = candidates(text, []).length;
    const many = candidates(text, [2, 3, 4, 5, 6, 7, 8]).length;
    expect(few).toBeLessThan(text.length);
    expect(many).toBeLessThan(text.length * 3);
  });
});

describe('audit entries', () => {
  it('scrub the tool argument, the arguments and the name before they reach Redis', async () => {
    const index = new SecretIndex(redis, { key, prefix });
    const known = 'known-secret-Zq81';
    await index.register(known);
    const audit = new AuditLog(redis, prefix, index);
    const pasted = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    await audit.append({
      id: 'change-1',
      at: 1,
      platform: 'slack',
      user: 'slack:T1:U1',
      name: `Mona ${known}`,
      conversationId: 'slack:T1:C1',
      command: 'deploy',
      tool: pasted,
      args: { tool: pasted, note: `with ${known}`, source: 'https://example.org/ok.git' },
      outcome: 'usage',
    });
    const stored = await everythingStored();
    expect(stored).not.toContain(pasted);
    expect(stored).not.toContain(known);
    const [entry] = await audit.recent({ limit: 1 });
    expect(entry?.tool).toBe('[redacted]');
    expect(entry?.args).toEqual({
      tool: '[redacted]',
      note: 'with [redacted]',
      source: 'https://example.org/ok.git',
    });
    expect(entry?.name).toBe('Mona [redacted]');
  });
});
