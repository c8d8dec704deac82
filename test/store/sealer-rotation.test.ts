/**
 * Rotating `SECRET_KEY` over every kind of sealed record: credential vault values, Slack
 * installations and Telegram form answers are sealed by the one sealer; after a rotation
 * (`SECRET_KEY` new, `SECRET_KEY_PREVIOUS` old) each is readable, and its first read stores it under
 * the new key, so the old key can then be dropped. Records in the older formats (no key id, no
 * slot) open too and move to the current format the same way.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { SlackInstallationStore } from '../../adapters/slack/installations';
import { type FormConversation, FormStore } from '../../adapters/telegram/form-store';
import { RedisKeyValue, SealedStateError, valueSealer } from '../../src/store/key-value';
import { PendingLinkStore } from '../../src/store/links';
import { replaceString, resealAtRest } from '../../src/store/reseal';
import { keyId, Sealer } from '../../src/store/sealer';
import { CredentialVault } from '../../src/store/vault';
import { testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
const prefix = testPrefix();
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const before = new Sealer({ current: oldKey });
const rotated = new Sealer({ current: newKey, previous: [oldKey] });
const afterRotation = new Sealer({ current: newKey });

useTestRedis((opened) => {
  redis = opened;
});

/** The id of the key a stored value in the current format was sealed with. */
const sealedWith = (stored: string | null | undefined) => stored?.split('.')[1];

/** The stores a process builds from one sealer, as the wiring does. */
function stores(sealer: Sealer) {
  return {
    vault: new CredentialVault(redis, sealer, prefix),
    slack: new SlackInstallationStore(new RedisKeyValue(redis, prefix, 'slack:installation', sealer)),
    forms: new FormStore(
      new RedisKeyValue(redis, prefix, 'tg:form'),
      new RedisKeyValue(redis, prefix, 'tg:form-pending'),
      valueSealer(sealer),
      '4242',
    ),
  };
}

const installation = (team: string, token: string) =>
  ({
    team: { id: team, name: 'Team' },
    enterprise: undefined,
    isEnterpriseInstall: false,
    bot: { token, scopes: ['commands'], id: 'B1', userId: 'UBOT' },
    appId: 'A1',
    tokenType: 'bot',
  }) as unknown as Installation<'v2', false>;

/** Bolt's query for a workspace's installation. */
const team = (teamId: string) => ({ teamId, enterpriseId: undefined, isEnterpriseInstall: false });

const conversation = (secrets: Record<string, string>): FormConversation => ({
  formId: 'F1',
  form: { title: 'Form', fields: [], command: 'x', args: {} } as never,
  step: 1,
  answers: { title: 'Launch' },
  secrets,
  expiresAt: Date.now() + 600_000,
});

describe('one sealer, rotated', () => {
  it('every sealed record kind is readable after a rotation and sealed again under the new key', async () => {
    const old = stores(before);
    const owner = { platform: 'slack', workspace: 'T1', id: 'UROT' };
    await old.vault.put(owner, 'media', { secret: { apiKey: 'media-key-rotating-01' }, meta: {} });
    await old.slack.storeInstallation(installation('TROT', 'xoxb-rotating-token-01'));
    await old.forms.save(7, conversation({ password: old.forms.seal('form-secret-rotating-01') }));

    const installKey = `${prefix}slack:installation:T:TROT`;
    const formKey = `${prefix}tg:form:4242:7`;
    expect(sealedWith(await redis.hget(old.vault.key(owner), 'media'))).toBe(keyId(oldKey));
    expect(sealedWith(await redis.get(installKey))).toBe(keyId(oldKey));
    const storedForm = JSON.parse((await redis.get(formKey)) ?? '{}') as FormConversation;
    expect(sealedWith(storedForm.secrets.password)).toBe(keyId(oldKey));
    const formTtl = await redis.pttl(formKey);

    // With only the new key nothing opens: the previous key is what makes the rotation work.
    const lost = stores(afterRotation);
    await expect(lost.vault.get(owner, 'media')).rejects.toThrow(/sealed with a key/);
    await expect(lost.slack.fetchInstallation(team('TROT'))).rejects.toThrow(SealedStateError);

    const now = stores(rotated);
    expect((await now.vault.get(owner, 'media'))?.secret.apiKey).toBe('media-key-rotating-01');
    const fetched = await now.slack.fetchInstallation(team('TROT'));
    expect(fetched.bot?.token).toBe('xoxb-rotating-token-01');
    const form = await now.forms.get(7);
    expect(now.forms.open(form?.secrets.password ?? '')).toBe('form-secret-rotating-01');

    expect(sealedWith(await redis.hget(old.vault.key(owner), 'media'))).toBe(keyId(newKey));
    expect(sealedWith(await redis.get(installKey))).toBe(keyId(newKey));
    const resealed = JSON.parse((await redis.get(formKey)) ?? '{}') as FormConversation;
    expect(sealedWith(resealed.secrets.password)).toBe(keyId(newKey));
    expect(resealed.answers).toEqual({ title: 'Launch' });
    // The form still expires with its form.
    expect(await redis.pttl(formKey)).toBeGreaterThan(0);
    expect(await redis.pttl(formKey)).toBeLessThanOrEqual(formTtl + 1000);

    // Once sealed again, the old key is no longer needed.
    const later = stores(afterRotation);
    expect((await later.vault.get(owner, 'media'))?.secret.apiKey).toBe('media-key-rotating-01');
    expect((await later.slack.fetchInstallation(team('TROT'))).bot?.token).toBe('xoxb-rotating-token-01');
    const laterForm = await later.forms.get(7);
    expect(later.forms.open(laterForm?.secrets.password ?? '')).toBe('form-secret-rotating-01');
  });

  it('opens records written in the older formats and stores them in the current one', async () => {
    // The formats the Slack installation store and the Telegram form store wrote on their own:
    // AES-256-GCM under SECRET_KEY, standard base64, no key id and no slot.
    const legacy = (plaintext: string) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', oldKey, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64'));
    };
    const installKey = `${prefix}slack:installation:T:TLEGACY`;
    const record = JSON.stringify(installation('TLEGACY', 'xoxb-legacy-token-01'));
    await redis.set(installKey, ['v1', ...legacy(record)].join('.'));
    await redis.set(
      `${prefix}tg:form:4242:8`,
      JSON.stringify(conversation({ password: legacy('legacy-form-secret-01').join(':') })),
      'PX',
      600_000,
    );

    const now = stores(rotated);
    const fetched = await now.slack.fetchInstallation(team('TLEGACY'));
    expect(fetched.bot?.token).toBe('xoxb-legacy-token-01');
    const form = await now.forms.get(8);
    expect(now.forms.open(form?.secrets.password ?? '')).toBe('legacy-form-secret-01');

    expect(sealedWith(await redis.get(installKey))).toBe(keyId(newKey));
    const stored = JSON.parse((await redis.get(`${prefix}tg:form:4242:8`)) ?? '{}') as FormConversation;
    expect(sealedWith(stored.secrets.password)).toBe(keyId(newKey));
    expect(JSON.stringify(stored)).not.toContain('legacy-form-secret-01');
    expect((await redis.get(installKey)) ?? '').not.toContain('xoxb-legacy-token-01');
  });

  it('ends a form whose secret answer no key opens, instead of failing on every message', async () => {
    const old = stores(before);
    await old.forms.save(9, conversation({ password: old.forms.seal('form-secret-lost-01') }));
    expect(await redis.exists(`${prefix}tg:form:4242:9`)).toBe(1);
    expect(await stores(afterRotation).forms.get(9)).toBeUndefined();
    expect(await redis.exists(`${prefix}tg:form:4242:9`)).toBe(0);
  });

  it('a start-up sweep seals every stored record again without waiting for it to be read', async () => {
    const sweepPrefix = testPrefix();
    const owner = { platform: 'discord', workspace: 'G1', id: 'USWEEP' };
    const oldVault = new CredentialVault(redis, before, sweepPrefix);
    await oldVault.put(owner, 'calendar', { secret: { applicationPassword: 'abcd efgh ijkl' }, meta: {} });
    const installs = new SlackInstallationStore(
      new RedisKeyValue(redis, sweepPrefix, 'slack:installation', before),
    );
    await installs.storeInstallation(installation('TSWEEP', 'xoxb-sweep-token-01'));
    const links = new PendingLinkStore(redis, before, sweepPrefix);
    const state = await links.create({
      owner,
      name: 'n',
      conversationId: 'discord:G1:C1',
      isPrivate: true,
      scopes: [],
      codeVerifier: 'verifier-of-the-sweep-test-000000000000',
      redirectUri: 'http://127.0.0.1/cb',
      createdAt: Date.now(),
    });
    await redis.set(`${sweepPrefix}dedupe:plain`, 'not sealed');

    expect(await resealAtRest(redis, sweepPrefix, rotated)).toEqual({ resealed: 3, unreadable: 0 });
    expect(await resealAtRest(redis, sweepPrefix, rotated)).toEqual({ resealed: 0, unreadable: 0 });

    // Nothing was read through the stores, yet only the new key is needed now.
    expect(
      (await new CredentialVault(redis, afterRotation, sweepPrefix).get(owner, 'calendar'))?.secret,
    ).toEqual({
      applicationPassword: 'abcd efgh ijkl',
    });
    const later = new SlackInstallationStore(
      new RedisKeyValue(redis, sweepPrefix, 'slack:installation', afterRotation),
    );
    expect((await later.fetchInstallation(team('TSWEEP'))).bot?.token).toBe('xoxb-sweep-token-01');
    expect((await new PendingLinkStore(redis, afterRotation, sweepPrefix).take(state))?.codeVerifier).toBe(
      'verifier-of-the-sweep-test-000000000000',
    );
    expect(await redis.get(`${sweepPrefix}dedupe:plain`)).toBe('not sealed');
  });

  it('never overwrites a value that changed after it was read', async () => {
    const key = `${prefix}cas:one`;
    await redis.set(key, 'newer write', 'PX', 60_000);
    expect(await replaceString(redis, key, 'what was read', 'sealed again')).toBe(false);
    expect(await redis.get(key)).toBe('newer write');
    expect(await replaceString(redis, key, 'newer write', 'sealed again')).toBe(true);
    expect(await redis.get(key)).toBe('sealed again');
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it('binds a sealed value to its slot: copied to another key it does not open', async () => {
    const sealed = new RedisKeyValue(redis, prefix, 'slack:installation', rotated);
    await sealed.set('T:TA', 'record-of-team-a');
    await redis.set(
      `${prefix}slack:installation:T:TB`,
      (await redis.get(`${prefix}slack:installation:T:TA`)) ?? '',
    );
    expect(await sealed.get('T:TA')).toBe('record-of-team-a');
    await expect(sealed.get('T:TB')).rejects.toThrow(SealedStateError);
    // A vault value never opens in an older format: the vault had only the current one.
    const legacyShaped = ['v1', 'aaaa', 'bbbb', 'cccc'].join('.');
    expect(() => rotated.open(legacyShaped, 'vault|x')).toThrow(/sealed with a key/);
  });
});
