/** Forms on IRC: prompts in the private query, answers only from the account they were asked of. */
import { describe, expect, it } from 'vitest';
import { IrcForms, isCancel } from '../../../adapters/irc/forms';
import type { IrcPlace } from '../../../adapters/irc/surface';
import type { FormSpec } from '../../../src/core/forms';
import type { Card } from '../../../src/core/reply';
import { memoryStore } from '../../support/memory-store';

function rig() {
  const posted: { nick: string; card: Card }[] = [];
  const submitted: { place: IrcPlace; formId: string; values: Record<string, string> }[] = [];
  const forms = new IrcForms({
    store: memoryStore(),
    post: async (nick, card) => void posted.push({ nick, card }),
    timeoutMs: 60_000,
    submit: async (place, formId, values) => void submitted.push({ place, formId, values }),
  });
  return { forms, posted, submitted };
}

const ada: IrcPlace = { network: 'irc.local', target: '#ops', nick: 'ada', account: 'ada' };
const inQuery = (place: IrcPlace): IrcPlace => ({ ...place, target: place.nick });
const form: FormSpec = {
  title: 'New event',
  fields: [
    { name: 'title', label: 'Event title' },
    { name: 'where', label: 'Place', optional: true },
  ],
  command: 'calendar event',
  args: { calendar: 'team' },
};

describe('IRC forms', () => {
  it('asks each field in turn in the private query, then runs the command with the answers', async () => {
    const { forms, posted, submitted } = rig();
    expect(await forms.open('form-1', form, ada)).toBe(true);
    expect(posted.map((p) => p.nick)).toEqual(['ada']);
    expect(posted[0]?.card.title).toBe('New event');
    expect(posted[0]?.card.text).toMatch(
      /^Event title — 1 of 2\. Answer each question with a line here; cancel stops\./,
    );
    expect(await forms.answer(inQuery(ada), '  Launch party ')).toBe(true);
    expect(posted[1]?.card.text).toMatch(/^Place \(optional: - skips it\) — 2 of 2\./);
    expect(await forms.answer(inQuery(ada), '-')).toBe(true);
    expect(submitted).toEqual([{ place: inQuery(ada), formId: 'form-1', values: { title: 'Launch party' } }]);
    // The form is over: the next line is a command again.
    expect(await forms.answer(inQuery(ada), 'help')).toBe(false);
  });

  it('takes answers only from the account it asked, whatever the nick', async () => {
    const { forms, submitted } = rig();
    await forms.open('form-2', form, ada);
    // Someone else (another account, or no account) holding the nick `ada` answers nothing.
    expect(await forms.answer({ ...inQuery(ada), account: 'mallory' }, 'taken over')).toBe(false);
    expect(await forms.answer({ network: 'irc.local', target: 'ada', nick: 'ada' }, 'taken over')).toBe(
      false,
    );
    // Positive control: the account answers under another nick.
    expect(await forms.answer({ ...inQuery(ada), nick: 'ada_away', target: 'ada_away' }, 'Party')).toBe(true);
    expect(await forms.answer({ ...inQuery(ada), nick: 'ada_away', target: 'ada_away' }, 'Hall')).toBe(true);
    expect(submitted.map((s) => s.values)).toEqual([{ title: 'Party', where: 'Hall' }]);
  });

  it('asks no form with a secret field, nor of a person not identified with services', async () => {
    const { forms, posted } = rig();
    const secret: FormSpec = { ...form, fields: [{ name: 'token', label: 'Token', secret: true }] };
    expect(await forms.open('form-3', secret, ada)).toBe(false);
    expect(await forms.open('form-4', form, { network: 'irc.local', target: '#ops', nick: 'ada' })).toBe(
      false,
    );
    expect(posted).toEqual([]);
    // Positive control: the same person identified gets the form without the secret.
    expect(await forms.open('form-5', form, ada)).toBe(true);
    expect(posted).toHaveLength(1);
  });

  it('cancels on `cancel`: nothing runs, and the next line is not an answer', async () => {
    const { forms, posted, submitted } = rig();
    expect(isCancel('!cancel', '!') && isCancel(' Cancel ', '!') && !isCancel('cancel it', '!')).toBe(true);
    await forms.open('form-6', form, ada);
    expect(await forms.cancel(inQuery(ada))).toBe(true);
    expect(posted.at(-1)?.card.text).toBe('The form was cancelled; nothing was done.');
    expect(await forms.answer(inQuery(ada), 'Launch party')).toBe(false);
    expect(await forms.cancel(inQuery(ada))).toBe(false);
    expect(submitted).toEqual([]);
  });
});
