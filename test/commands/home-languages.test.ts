/**
 * `/me` and `/notify` are read by one person: every part of the view, the notification settings
 * and a refused quiet-hours range are in the reader's language (their `/language`, else the
 * conversation's).
 */
import { describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

function section(card: Card | undefined, label: string): string {
  return card?.fields?.find((field) => field.label === label)?.value ?? `(no ${label} section)`;
}

describe('/me and /notify in the reader’s language', () => {
  let t: TestApp;
  useStarted(startTestApp, (started) => {
    t = started;
  });

  it('draws every part of /me in German for a German reader', async () => {
    await t.app.services.languages?.setUser('slack:T1:UGERMAN', 'de');
    const [card] = await t.say('/me', { user: 'UGERMAN' });
    expect(card?.title).toBe('Dein Deckhand-Überblick');
    expect(section(card, 'Deine Tools')).toBe('noch keine');
    expect(section(card, 'Deine Sperren')).toBe('keine');
    expect(section(card, 'Verknüpfte Konten')).not.toContain('(no ');
    const notifications = section(card, 'Deine Benachrichtigungen');
    expect(notifications).toContain('Direktnachrichten: ');
    expect(notifications).toContain('Ruhezeiten: keine');
  });

  it('says the /notify settings and a wrong quiet-hours range in German', async () => {
    await t.app.services.languages?.setUser('slack:T1:UQUIET', 'de');
    const [set] = await t.say('/notify quiet 22:00-07:00 --zone Europe/Berlin', { user: 'UQUIET' });
    expect(set?.fields?.map((field) => field.label)).toContain('Ruhezeiten');
    const refused = JSON.stringify(await t.say('/notify quiet 25:00-07:00', { user: 'UQUIET' }));
    expect(refused).toContain('ist kein Zeitraum');
    expect(refused).not.toContain('is not a range of times');
  });

  it('falls back to the conversation’s Hebrew for a reader without a setting', async () => {
    await t.app.services.languages?.setConversation('slack:T1:C1', 'he');
    try {
      const [card] = await t.say('/me', { user: 'UHEBREW' });
      expect(card?.fields?.map((field) => field.label)).toContain('נעילות שלכם');
      expect(section(card, 'חשבונות מקושרים')).not.toContain('(no ');
      expect(card?.fields?.find((field) => field.value.includes('שעות שקטות'))).toBeDefined();
    } finally {
      await t.app.services.languages?.setConversation('slack:T1:C1', undefined);
    }
  });
});
