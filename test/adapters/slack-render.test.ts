import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_CHARS, renderCard, STATUS_COLOR } from '../../adapters/slack/render';
import { dangerDialogs } from '../../src/core/confirm-dialogs';
import type { Card } from '../../src/core/reply';
import { checkMessage } from '../fakes/slack';

type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: Record<string, unknown>[];
};

function blocksOf(card: Card, dialogs?: Set<string>): Block[] {
  const chosen = dialogs && new Map([...dangerDialogs(card)].filter(([id]) => dialogs.has(id)));
  const message = chosen ? renderCard(card, chosen) : renderCard(card);
  expect(checkMessage(message)).toEqual([]);
  return message.attachments[0]?.blocks as Block[];
}

describe('Slack rendering', () => {
  it('renders header, text, fields, code, buttons and footer, coloured by status', () => {
    const message = renderCard({
      title: 'Deploy mytool',
      text: 'Deployment of mytool is running.',
      status: 'progress',
      fields: [
        { label: 'Status', value: 'running', inline: true },
        { label: 'Started', value: 'now', inline: true },
        { label: 'Source', value: 'repo', url: 'https://example.org/repo?a=1&b=2' },
      ],
      code: { text: 'line 1\nline 2' },
      buttons: [{ label: 'Cancel', actionId: 'abc123DEF456', style: 'danger' }],
      links: [{ label: 'Docs', url: 'https://example.org/docs' }],
      footer: 'deployment 42',
    });
    expect(message.attachments[0]?.color).toBe(STATUS_COLOR.progress);
    const blocks = message.attachments[0]?.blocks as Block[];
    expect(blocks.map((b) => b.type)).toEqual([
      'header',
      'section',
      'section',
      'section',
      'section',
      'actions',
      'context',
    ]);
    expect(blocks[0]?.text?.text).toBe(':hourglass_flowing_sand: Deploy mytool');
    expect(blocks[2]?.fields?.map((f) => f.text)).toEqual(['*Status*\nrunning', '*Started*\nnow']);
    expect(blocks[3]?.text?.text).toBe('*Source*\n<https://example.org/repo?a=1&amp;b=2|repo>');
    expect(blocks[4]?.text?.text).toBe('```\nline 1\nline 2\n```');
    const [cancel, docs] = (blocks[5]?.elements ?? []) as Record<string, unknown>[];
    expect(cancel).toMatchObject({ action_id: 'dh.abc123DEF456', value: 'abc123DEF456', style: 'danger' });
    expect(cancel?.confirm).toMatchObject({ confirm: { text: 'Cancel' }, style: 'danger' });
    expect(docs).toMatchObject({ url: 'https://example.org/docs' });
    expect(checkMessage(message)).toEqual([]);
  });

  it('escapes &, < and > everywhere, so no mention, broadcast or link can be formed', () => {
    const evil = 'ping <!channel> <!here> <@U123> <#C1|x> <https://evil.example|click> a&b';
    const message = renderCard({
      title: evil,
      text: evil,
      fields: [
        { label: evil, value: evil, inline: true },
        { label: 'x', value: evil },
      ],
      code: { text: `log: ${evil}\n\`\`\`\n*bold*` },
      buttons: [{ label: evil, actionId: 'a1', style: 'danger' }],
      footer: evil,
    });
    const json = JSON.stringify(message);
    for (const raw of ['<!channel>', '<!here>', '<@U123>', '<#C1', '<https://evil'])
      expect(json).not.toContain(raw);
    expect(json).toContain('&lt;!channel&gt;');
    expect(json).toContain('a&amp;b');
    const code = ((message.attachments[0]?.blocks ?? []) as Block[]).find((b) =>
      b.text?.text.startsWith('```'),
    );
    expect(code?.text?.text.match(/```/g)).toHaveLength(2);
    expect(checkMessage(message)).toEqual([]);
  });

  it('splits long text into sections of at most 3,000 characters, never inside an entity', () => {
    const text = `${'<&>'.repeat(500)}\n${'x'.repeat(4000)}`;
    const sections = blocksOf({ text }).filter((b) => b.type === 'section');
    expect(sections.length).toBeGreaterThan(2);
    for (const s of sections) {
      expect(s.text?.text.length).toBeLessThanOrEqual(3000);
      expect(s.text?.text).not.toMatch(/&(a|am|l|g)?$/);
    }
    expect(sections.map((s) => s.text?.text).join('')).toBe(
      `${'&lt;&amp;&gt;'.repeat(500)}${'x'.repeat(4000)}`,
    );
  });

  it('keeps a message within 50 blocks and attaches what does not fit as a file', () => {
    const fields = Array.from({ length: 80 }, (_, i) => ({ label: `job-${i}`, value: `state ${i}` }));
    const message = renderCard({
      title: 'Many jobs',
      fields,
      buttons: [{ label: 'Refresh', actionId: 'r1' }],
    });
    const blocks = message.attachments[0]?.blocks as Block[];
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(blocks.at(-1)?.type).toBe('actions');
    expect(JSON.stringify(blocks)).toContain('attached file many-jobs.txt');
    expect(message.files).toEqual([
      { filename: 'many-jobs.txt', content: expect.stringContaining('job-79: state 79') },
    ]);
    expect(checkMessage(message)).toEqual([]);
  });

  it('shows at most 12,000 characters of a long log and attaches all of it', () => {
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'.'.repeat(40)}`).join('\n');
    const message = renderCard({ title: 'Logs of web', code: { text: log } });
    const shown = ((message.attachments[0]?.blocks ?? []) as Block[]).map((b) => b.text?.text ?? '').join('');
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN_CHARS + 500);
    expect(shown).toContain('line 0 ');
    expect(message.files[0]?.content).toContain('line 1999 ');
    expect(checkMessage(message)).toEqual([]);
  });

  it('puts more than 10 inline fields into several sections and more than 25 buttons into several blocks', () => {
    const blocks = blocksOf({
      fields: Array.from({ length: 13 }, (_, i) => ({ label: `f${i}`, value: 'v', inline: true })),
      buttons: Array.from({ length: 30 }, (_, i) => ({ label: `b${i}`, actionId: `id${i}` })),
    });
    expect(blocks.filter((b) => b.fields).map((b) => b.fields?.length)).toEqual([10, 3]);
    expect(blocks.filter((b) => b.type === 'actions').map((b) => b.elements?.length)).toEqual([25, 5]);
  });

  it('gives the confirm dialog only to the danger buttons it is asked to', () => {
    const card: Card = {
      buttons: [
        { label: 'Delete', actionId: 'del', style: 'danger' },
        { label: 'Cancel', actionId: 'can', style: 'danger' },
        { label: 'Restart', actionId: 'res', style: 'primary' },
      ],
    };
    const elements = blocksOf(card, new Set(['can'])).find((b) => b.type === 'actions')?.elements ?? [];
    expect(elements.map((e) => Boolean(e.confirm))).toEqual([false, true, false]);
  });

  it('cuts titles and button labels to Slack limits and drops links that are not http(s)', () => {
    const blocks = blocksOf({
      title: 'T'.repeat(400),
      buttons: [{ label: 'L'.repeat(200), actionId: 'x' }],
      links: [{ label: 'bad', url: 'javascript:alert(1)' }],
    });
    expect(blocks[0]?.text?.text.length).toBeLessThanOrEqual(150);
    const actions = blocks.find((b) => b.type === 'actions')?.elements ?? [];
    expect(actions).toHaveLength(1);
  });
});
