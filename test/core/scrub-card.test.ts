import { describe, expect, it } from 'vitest';
import { scrubCard } from '../../src/core/scrub-card';
import { registerSecret } from '../../src/secrets';

describe('masking known secrets in cards', () => {
  const secret = 'hunter2-super-secret-value';
  registerSecret(secret);
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

  it('masks every string of a public card', () => {
    const json = JSON.stringify(scrubCard(card));
    expect(json).not.toContain(secret);
    expect(json.match(/\[redacted\]/g)?.length).toBe(9);
  });

  it('leaves a private card alone: it goes to the one person who asked for the value', () => {
    expect(scrubCard({ ...card, visibility: 'private' })).toEqual({ ...card, visibility: 'private' });
  });
});
