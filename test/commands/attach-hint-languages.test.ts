/** How to attach a file on the reader's platform is said in the reader's language. */
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { useStarted } from '../support/started';

describe('the attach hint in the reader’s language', () => {
  let t: TestApp;
  useStarted(startTestApp, (started) => {
    t = started;
  });

  it('tells a German reader how to attach a file on Slack in German', async () => {
    await t.app.services.languages?.setUser('slack:T1:UADMIN', 'de');
    try {
      const said = JSON.stringify(await t.say('/config set mytool', { private: true }));
      expect(said).toContain('Teile die Datei mit Deckhand in einer Direktnachricht');
      expect(said).not.toContain('Share the file');
    } finally {
      await t.app.services.languages?.setUser('slack:T1:UADMIN', undefined);
    }
  });
});
