import { describe, expect, it } from 'vitest';
import { HELP_GUIDE } from '../../commands/chat/help-guide';
import { bindTokens } from '../../src/core/bind';
import { closestWords } from '../../src/core/did-you-mean';
import { UsageError } from '../../src/core/errors';
import { helpFor } from '../../src/core/help-sections';
import { tokenize } from '../../src/core/tokenize';
import { FSI, PDI, translator } from '../../src/i18n/translate';
import { commandRegistry } from '../../src/wiring';

const registry = commandRegistry();

/** The usage error a line gets (resolving, binding, or `/help <topic>`), as message + hint. */
function complaint(line: string): string {
  try {
    const { command, rest } = registry.resolve(tokenize(line));
    const args = bindTokens(command as never, rest);
    if (command.name === 'help') helpFor(registry as never, HELP_GUIDE, args.topic as string[]);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const usage = error as UsageError;
    return `${usage.message}\n${usage.hint ?? ''}`;
  }
  throw new Error(`expected a usage error for ${line}`);
}

const TYPOS: readonly (readonly [string, string])[] = [
  ['/deplyo mytool', 'Did you mean /deploy?'],
  ['/deplo mytool', '/deploy'],
  ['/dpeloy mytool', 'Did you mean /deploy?'],
  ['/biuld list mytool', 'Did you mean /build?'],
  ['/jbos list mytool', 'Did you mean /jobs?'],
  ['/envars list mytool', 'Did you mean /envvars?'],
  ['/evnets', 'Did you mean /events?'],
  ['/subscirbe mytool', 'Did you mean /subscribe?'],
  ['/tokne show mytool', 'Did you mean /token?'],
  ['/whomai', 'Did you mean /whoami?'],
  ['/calender digest', 'Did you mean /calendar?'],
  ['/jobs lsit mytool', 'Did you mean `/jobs list`?'],
  ['/jobs restrat mytool web', 'Did you mean `/jobs restart`?'],
  ['/build strat mytool https://example.org/r.git', 'Did you mean `/build start`?'],
  ['/build lgos mytool', 'Did you mean `/build logs`?'],
  ['/envvars delet mytool X', 'Did you mean `/envvars delete`?'],
  ['/media uplaod', 'Did you mean `/media upload`?'],
  ['/media folder crate clips', 'Did you mean `/media folder create`?'],
  ['/event craete "Party"', 'Did you mean `/event create`?'],
  ['/source migraton list @me', 'Did you mean `/source migration`?'],
  ['/deploy mytool --force-biuld', 'Did you mean --force-build?'],
  ['/deploy mytool --forcebuild', 'Did you mean --force-build?'],
  ['/deploy mytool --descripton x', 'Did you mean --description?'],
  ['/logs mytool web --lnes 5', 'Did you mean --lines?'],
  ['/logs mytool web --sicne 1h', 'Did you mean --since?'],
  ['/unlink sorce', 'did you mean source?'],
  ['/jobs run mytool x --command c --image i --emails nnoe', 'did you mean none?'],
  ['/help deplyo', 'Did you mean /help deploy?'],
  ['/help jobs lsit', 'Did you mean /help jobs list?'],
  ['/help calender', 'Did you mean /help calendar?'],
];

describe('did you mean', () => {
  it.each(TYPOS)('%s → %s', (line, suggestion) => {
    expect(complaint(line)).toContain(suggestion);
  });

  it('suggests nothing for a word far from every command, and lists the choices instead', () => {
    expect(complaint('/frobnicate')).not.toContain('Did you mean');
    expect(complaint('/jobs zzzzzz mytool')).toContain('Choose one of: list, show, run');
    expect(complaint('/deploy mytool --zzzzzzzz')).not.toContain('Did you mean');
  });

  it('keeps every closest candidate when two are equally close, and never suggests the word itself', () => {
    expect(closestWords('deplo', ['deploy', 'deployment', 'build'])).toEqual(['deploy', 'deployment']);
    expect(closestWords('list', ['list', 'lost'])).toEqual(['lost']);
    expect(closestWords('', ['list'])).toEqual([]);
  });

  it("says it in the reader's language, English staying the error's own message", () => {
    const refusal = (line: string): UsageError => {
      try {
        registry.resolve(tokenize(line));
      } catch (error) {
        return error as UsageError;
      }
      throw new Error(`expected a usage error for ${line}`);
    };
    const inGerman = (line: string) => {
      const error = refusal(line);
      const words = error.words?.(translator('de'));
      return `${error.message}\n${words?.message}\n${words?.hint}`;
    };
    expect(inGerman('/deplyo mytool')).toBe(
      'Unknown command /deplyo.\nUnbekannter Befehl /deplyo.\nMeintest du /deploy? Mit /help siehst du alle Befehle.',
    );
    expect(inGerman('/jobs lsit mytool')).toBe(
      'Unknown subcommand `lsit` for /jobs.\nUnbekannter Unterbefehl `lsit` für /jobs.\nMeintest du `/jobs list`?',
    );
    expect(inGerman('/jobs mytool list')).toContain('\nMeintest du `/jobs list mytool`?');
    expect(inGerman('/jobs zzzzzz mytool')).toContain('\nWähle eins davon: list, show, run');
    // Each suggestion isolated on its own, joined by the language's "or".
    expect(refusal('/deplo mytool').words?.(translator('he')).hint).toContain(
      `${FSI}/deploy${PDI} או ${FSI}/deployment${PDI}`,
    );
  });
});

describe('a group name alone', () => {
  it.each([
    ['/media folder', '/media folder commands', '/media folder create'],
    ['/media', '/media commands', '/media upload-url'],
    ['/jobs', '/jobs commands', '/jobs restart'],
    ['/source migration', '/source migration commands', '/source migration start'],
  ])('%s shows that group’s help', (line, title, member) => {
    const { command, rest } = registry.resolve(tokenize(line));
    expect(command.name).toBe('help');
    const args = bindTokens(command as never, rest);
    const card = helpFor(registry as never, HELP_GUIDE, args.topic as string[]);
    expect(card.title).toBe(title);
    expect(card.text).toContain(member);
  });

  it('/help media folder lists the folder commands', () => {
    const card = helpFor(registry as never, HELP_GUIDE, ['media', 'folder']);
    expect(card.text?.split('\n')).toHaveLength(3);
  });
});
