/**
 * `/tool sal <tool> [on|off]` through the real runner: maintainers turn a tool's SAL on and off (each
 * change audited), anyone else is refused and nothing changes, a bad state is a usage message, and
 * `/tool status` says where the tool's changes are logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../../src/core/reply';
import { startTestApp, type TestApp } from '../../support/app';

let t: TestApp;
const text = (cards: Card[]) => cards.map((c) => `${c.title ?? ''}\n${c.text ?? ''}`).join('\n');

beforeAll(async () => {
  t = await startTestApp({ TOOL_MAINTAINERS: 'mytool=slack:UMAINT', SAL_CHANNEL: '#wikimedia-cloud-feed' });
});
afterAll(async () => {
  await t?.close();
});

describe('/tool sal', () => {
  it('is off by default; a maintainer turns it on and off, each change audited', async () => {
    expect(text(await t.say('/tool sal mytool', { user: 'UMAINT' }))).toMatch(
      /The SAL of mytool is off \(the default; \/(deckhand )?tool sal mytool on changes it\)/,
    );
    expect(text(await t.say('/tool sal mytool on', { user: 'UMAINT' }))).toContain(
      'is now logged as `!log tools.mytool …` in #wikimedia-cloud-feed',
    );
    expect(await t.app.services.adminLog.setting('mytool')).toBe(true);
    expect(text(await t.say('/tool sal mytool on', { user: 'UMAINT' }))).toContain('(It already was.)');
    expect(text(await t.say('/tool sal mytool off', { user: 'UMAINT' }))).toContain(
      'no longer written to its SAL',
    );
    const audited = (await t.app.services.accounts.audit.recent({ tool: 'mytool', limit: 10 }))
      .filter((r) => r.command === 'tool sal')
      .map((r) => [r.args.state, r.outcome]);
    expect(audited).toEqual([
      ['off', 'ok'],
      ['on', 'ok'],
    ]);
  });

  it('refuses someone who does not maintain the tool, and changes nothing', async () => {
    const before = await t.app.services.adminLog.setting('mytool');
    const shown = text(await t.say('/tool sal mytool on', { user: 'USTRANGER' }));
    expect(shown).toMatch(/permission|not allowed|maintainers/i);
    expect(await t.app.services.adminLog.setting('mytool')).toBe(before);
  });

  it('answers a state other than on or off with a usage message naming it', async () => {
    const shown = text(await t.say('/tool sal mytool maybe', { user: 'UMAINT' }));
    expect(shown).toContain('Invalid <state>: must be one of on, off (got `maybe`).');
    expect(shown).toContain('tool sal mytool on');
    expect(await t.app.services.adminLog.setting('mytool')).toBe(false);
  });

  it('/tool status shows whether the tool is logged, and where', async () => {
    const field = async () =>
      (await t.say('/tool status mytool', { user: 'UMAINT' }))[0]?.fields?.find(
        (f) => f.label === 'Admin log',
      )?.value;
    expect(await field()).toBe('off');
    await t.say('/tool sal mytool on', { user: 'UMAINT' });
    expect(await field()).toBe('on (#wikimedia-cloud-feed)');
  });
});
