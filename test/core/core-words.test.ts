import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lockedError } from '../../src/core/change-guard';
import { claimedCard, recoveredCard } from '../../src/core/failure-card';
import type { FailureState } from '../../src/core/failure-claim';
import { issuePhrase } from '../../src/core/issue-words';
import { describeNotifySettings, parseQuietHours } from '../../src/core/personal-notify';
import type { WatchEvent } from '../../src/core/watch';
import { translator } from '../../src/i18n/translate';

const lock = {
  tool: 'mytool',
  holder: 'slack:T1:U1',
  name: 'ada',
  conversationId: 'slack:T1:C1',
  since: Date.UTC(2026, 10, 28, 7, 0),
  until: Date.UTC(2026, 10, 28, 9, 0),
};

describe("the core's refusals and cards in the reader's language", () => {
  it('a lock refusal keeps its English for the logs and says it in German to a German reader', () => {
    const error = lockedError(lock, 'deploy', true);
    expect(error.message).toBe(
      'mytool is locked by ada since Sat 28 Nov 2026, 07:00 UTC, until Sat 28 Nov 2026, 09:00 UTC. /deploy was not run; nothing was changed.',
    );
    expect(error.hint).toBe(
      'A maintainer of mytool can unlock it with /tool unlock mytool, or wait until the lock expires. To run it anyway, add --override: another maintainer of mytool must approve it.',
    );
    const german = error.words?.(translator('de'));
    expect(german?.message).toContain('ist seit');
    expect(german?.message).toContain('von ada gesperrt');
    expect(german?.hint).toContain('--override');
  });

  it("an argument's problem is said in the reader's language, English by default", () => {
    const schema = z.object({ count: z.number().int().min(3) });
    const result = schema.safeParse({ count: 1 });
    const issue = result.error?.issues[0] as z.core.$ZodIssue;
    expect(issuePhrase(issue, 1)).toBe('must be at least 3');
    expect(issuePhrase(issue, 1, translator('de'))).toBe('muss mindestens 3 sein');
  });

  it("quiet hours and the /notify settings are refused and shown in the reader's language", () => {
    expect(parseQuietHours('22:00', 'UTC')).toBe('22:00 is not a range of times: write it as 22:00-07:00.');
    expect(parseQuietHours('07:00-07:00', 'UTC', translator('de'))).toBe(
      'Ruhezeiten müssen zu verschiedenen Zeiten anfangen und enden.',
    );
    const settings = { personal: false, accounts: {}, breakThrough: false };
    const lines = describeNotifySettings(settings as never, undefined, translator('he'));
    expect(lines.map((line) => line.label)).toEqual(['הודעות ישירות', 'נשלחות דרך', 'שעות שקטות']);
  });

  it("a failure card's claim marks follow the language its announcement was written in, and are replaced, not repeated", () => {
    const event: WatchEvent = {
      tool: 'mytool',
      kind: 'job',
      id: 'nightly',
      from: 'running',
      to: 'failed',
      at: Date.now(),
      outcome: 'failure',
    } as WatchEvent;
    const state: FailureState = {
      scope: { tool: 'mytool', job: 'nightly' },
      event,
      card: {
        title: 'mytool: job failed',
        locale: 'de',
        actions: [{ label: 'Anzeigen', command: 'jobs show', args: {} }],
      },
      claim: { holder: 'slack:T1:U1', name: 'ada', since: Date.now() },
      cards: [],
    };
    const claimed = claimedCard(state);
    expect(claimed.fields?.map((f) => f.label)).toEqual(['Kümmert sich']);
    expect(claimed.actions?.map((a) => a.label)).toEqual(['Anzeigen', 'Übergeben', 'Freigeben']);
    // Claimed again (a hand-off): the earlier German mark is replaced.
    const again = claimedCard({ ...state, card: claimed });
    expect(again.fields?.map((f) => f.label)).toEqual(['Kümmert sich']);
    const recovered = recoveredCard({ ...state, card: claimed }, { ...event, to: 'running' });
    expect(recovered.title).toBe('mytool: job nightly wieder in Ordnung');
    expect(recovered.actions?.map((a) => a.label)).toEqual(['Anzeigen']);
  });
});
