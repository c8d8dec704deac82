/**
 * The approval card in each conversation's language: asked in a German conversation, it is German
 * there; its copy in a Hebrew conversation is Hebrew; a decision edits each in its own language.
 */
import { describe, expect, it } from 'vitest';
import type { MessageHandle } from '../../src/core/command';
import type { Card } from '../../src/core/reply';
import { button, startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

let t: TestApp;
useStarted(
  () => startTestApp({ TOOL_MAINTAINERS: 'mytool=slack:UMAINT,mytool=slack:UOTHER' }),
  (started) => {
    t = started;
  },
);

describe('an approval card in another language', () => {
  it("is written, copied and edited in each conversation's language", async () => {
    // Posts say where they were posted (the copies' edits are told apart by their conversation).
    const posted: { conversationId: string; card: Card }[] = [];
    const updates: { handle: MessageHandle; card: Card }[] = [];
    t.app.messengers.register('slack', {
      async post(conversationId, card) {
        posted.push({ conversationId, card });
        return { platform: 'slack', conversationId, ref: { ts: `copy${posted.length}` } };
      },
      async update(handle, card) {
        updates.push({ handle, card });
      },
    });
    await t.app.services.languages?.setConversation('slack:T1:C2', 'he');
    await t.app.services.subscriptions.put({
      conversationId: 'slack:T1:C2',
      platform: 'slack',
      tool: 'mytool',
      kinds: ['deploys'],
      failuresOnly: false,
      changesOnly: false,
      createdBy: 'slack:T1:UMAINT',
    });
    await t.say('/language --here de', { user: 'UMAINT' });
    await t.say('/tool protect mytool deploy', { user: 'UMAINT' });
    const [asked] = await t.say('/deploy mytool', { user: 'UMAINT' });
    expect(asked?.title).toMatch(/^Freigabe nötig: \/.*deploy mytool$/);
    expect(asked?.locale).toBe('de');
    expect(asked?.buttons?.map((b) => b.label)).toEqual(['Freigeben', 'Ablehnen']);
    const copy = posted.find((p) => p.conversationId === 'slack:T1:C2')?.card;
    expect(copy?.title).toContain('נדרש אישור');
    expect(copy?.locale).toBe('he');

    await t.press(button(copy, 'אישור'), { user: 'UOTHER' });
    const here = updates.filter((u) => u.handle.conversationId === 'slack:T1:C1').map((u) => u.card);
    const there = updates.filter((u) => u.handle.conversationId === 'slack:T1:C2').map((u) => u.card);
    expect(here.at(-1)?.fields?.map((f) => f.label)).toContain('Freigegeben von');
    expect(there.at(-1)?.fields?.map((f) => f.label)).toContain('אושר על ידי');
    await t.say('/tool unprotect mytool', { user: 'UMAINT' });
  });
});
