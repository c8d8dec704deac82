import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { scrubCard } from '../../src/core/scrub-card';
import { SecretIndex } from '../../src/store/secret-index';
import { testPrefix, useTestRedis } from '../support/redis';

let redis: Redis;
let index: SecretIndex;
const secret = 'hunter2-super-secret-value';
const toolSecret = 'mytool-db-pass';

useTestRedis(async (opened) => {
  redis = opened;
  index = new SecretIndex(redis, { key: randomBytes(32), prefix: testPrefix() });
  await index.register(secret);
  await index.registerEnvvar('mytool', 'DB_PASSWORD', toolSecret);
});

describe('masking registered secrets in cards', () => {
  const card = {
    title: `title ${secret}`,
    text: `token ${secret}`,
    footer: secret,
    code: { text: `log ${secret}` },
    fields: [{ label: secret, value: `v ${secret}` }],
    buttons: [{ label: secret, actionId: 'a1' }],
    links: [{ label: secret, url: 'https://example.org' }],
    attachments: [{ filename: 'x.log', content: `line ${secret}` }],
  };

  it('masks a global secret in every string of a public card', async () => {
    const json = JSON.stringify(await scrubCard(card, index));
    expect(json).not.toContain(secret);
    expect(json.match(/\[redacted\]/g)?.length).toBe(9);
  });

  it('leaves a private card alone: it goes to the one person who asked for the value', async () => {
    expect(await scrubCard({ ...card, visibility: 'private' }, index)).toEqual({
      ...card,
      visibility: 'private',
    });
  });

  it("masks a tool's secret envvar only in that tool's log parts (code block, attachments)", async () => {
    const logCard = {
      title: `Status of ${toolSecret}`,
      code: { text: `connecting with ${toolSecret}` },
      attachments: [{ filename: 'job.log', content: `pw=${toolSecret}` }],
    };
    const mine = await scrubCard(logCard, index, 'mytool');
    expect(mine.code?.text).toBe('connecting with [redacted]');
    expect(mine.attachments?.[0]?.content).toBe('pw=[redacted]');
    expect(mine.title).toBe(`Status of ${toolSecret}`);
    expect(await scrubCard(logCard, index, 'demo')).toEqual(logCard);
    expect(await scrubCard(logCard, index)).toEqual(logCard);
  });
});
