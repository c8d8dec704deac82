/**
 * The stashbot rules the SAL tests check lines with (test/support/stashbot-sal.ts), pinned on cases
 * from stashbot's own source and tests: `stashbot/test_sal.py` `test_safe_arg`, the refusals of
 * `stashbot/sal.py` `Logger.log`, `RE_STYLE` of `stashbot/es.py`, `RE_PHAB` of `Logger._store_in_es`.
 */
import { describe, expect, it } from 'vitest';
import { type StashbotLine, stashbotSal, wikiSafe } from '../../support/stashbot-sal';

const projects = new Set(['tools.mytool', 'tools.paws', 'tools.quarry', 'deployment-prep', 'paws']);
const at = (text: string, channel = '#wikimedia-cloud-feed'): StashbotLine => ({
  channel,
  nick: 'deckhand',
  text,
  projects,
});

describe('stashbot SAL rules', () => {
  it('logs `!log <project> <message>` in the cloud channels, the project split off once on whitespace', () => {
    expect(stashbotSal(at('!log tools.mytool ada deployed main'))).toEqual({
      kind: 'logged',
      project: 'tools.mytool',
      message: 'ada deployed main',
      nick: 'deckhand',
      tasks: [],
    });
    const cloud = stashbotSal(at('!log   tools.mytool   two  spaces kept ', '#wikimedia-cloud'));
    expect(cloud).toMatchObject({ kind: 'logged', message: 'two  spaces kept' });
  });

  it('refuses what Logger.log refuses, with its replies', () => {
    expect(stashbotSal(at('!log tools.mytool'))).toEqual({
      kind: 'refused',
      reply: 'deckhand: Missing project or message? Expected !log <project> <message>',
    });
    expect(stashbotSal(at('!log    '))).toEqual({
      kind: 'refused',
      reply: 'deckhand: Message missing. Nothing logged.',
    });
    expect(stashbotSal(at('!log mytool restarted'))).toEqual({
      kind: 'refused',
      reply: 'deckhand: Unknown project "mytool" Did you mean to say "tools.mytool" instead?',
    });
    expect(stashbotSal(at('!log tools.paws restarted'))).toMatchObject({ kind: 'refused' });
    expect(stashbotSal(at('!log tools.quarry restarted'))).toMatchObject({ kind: 'refused' });
    expect(stashbotSal(at('!log tools.mytool hi', '#wikimedia-tech'))).toEqual({
      kind: 'refused',
      reply: 'deckhand: Not expecting to hear !log here',
    });
  });

  it('treats `!log help` as help and lines not starting with `!log ` as chat', () => {
    expect(stashbotSal(at('!log help'))).toEqual({ kind: 'help' });
    expect(stashbotSal(at(' !log tools.mytool x'))).toEqual({ kind: 'ignored' });
    expect(stashbotSal(at('!logtools.mytool x'))).toEqual({ kind: 'ignored' });
  });

  it('removes IRC formatting codes before reading the message (RE_STYLE)', () => {
    const out = stashbotSal(at('!log tools.mytool \x02bold\x02 \x0304,12red\x03 \x1Ditalic\x0F'));
    expect(out).toMatchObject({ kind: 'logged', message: 'bold red italic' });
  });

  it('finds each Phabricator task id once (RE_PHAB, de-duplicated as in T243843)', () => {
    const out = stashbotSal(at('!log tools.mytool deployed for T123 and T45, again T123; not T12x or xT9'));
    expect(out).toMatchObject({ kind: 'logged', tasks: ['T123', 'T45'] });
  });

  it('never sees a line longer than 512 bytes relayed, nor one with a line break', () => {
    const long = `!log tools.mytool ${'é'.repeat(240)}`;
    expect(stashbotSal(at(long))).toMatchObject({ kind: 'refused' });
    expect(stashbotSal(at('!log tools.mytool a\nb'))).toMatchObject({ kind: 'refused' });
  });

  it('escapes wiki template syntax as safe_arg does (test_safe_arg cases)', () => {
    expect(wikiSafe('a{b, c}d')).toBe('a<nowiki>{</nowiki>b, c<nowiki>}</nowiki>d');
    expect(wikiSafe('a{{b, c}}d')).toBe('a{{b, c}}d');
    expect(wikiSafe('a{{{b, c}}}d')).toBe('a{{{b, c}}}d');
    expect(wikiSafe('a|b')).toBe('a{{!}}b');
    expect(wikiSafe('k8s-{etcd,master,worker}')).toBe(
      'k8s-<nowiki>{</nowiki>etcd,master,worker<nowiki>}</nowiki>',
    );
  });
});
