import { type Translator, translator } from '../../src/i18n/translate';

/**
 * What one line typed in the terminal chat asks for: a command, a button pressed by its number
 * (`3`, `/press 3`) or by its card and label (`press 2 Cancel`, for scripts, which cannot know a
 * number in advance), any of them prefixed with `as <user>` to run it as another user.
 */

/** A parsed terminal line. */
export type ShellLine =
  | { kind: 'skip' }
  | { kind: 'error'; message: string }
  | { kind: 'press'; number: number; as?: string }
  | { kind: 'pressLabel'; card: string; label: string; as?: string }
  | { kind: 'command'; text: string; as?: string };

/** A user name `as` and `--as` accept. */
export const SHELL_USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** The label without the quotes around it (`press 2 "View logs"`). */
function unquote(label: string): string {
  const quoted = /^(["'“])(.*)(["'”])$/.exec(label);
  return quoted ? (quoted[2] as string) : label;
}

/** Reads one line of the terminal chat. */
export function readShellLine(line: string, say: Translator = translator('en')): ShellLine {
  let text = line.trim();
  if (!text || text.startsWith('#')) return { kind: 'skip' };
  let as: string | undefined;
  const prefixed = /^as(?:\s+(\S+))?(?:\s+([\s\S]*))?$/i.exec(text);
  if (prefixed) {
    const [, user, rest] = prefixed;
    if (!user || !rest?.trim()) return { kind: 'error', message: say.t('shell-line-as-usage') };
    if (!SHELL_USER_NAME.test(user)) {
      return {
        kind: 'error',
        message: `${say.t('shell-line-not-a-user', user.slice(0, 40))} ${say.t('shell-line-as-usage')}`,
      };
    }
    as = user;
    text = rest.trim();
  }
  const who = as ? { as } : {};
  const number = /^(?:\/?press\s+)?(\d+)$/i.exec(text);
  if (number) return { kind: 'press', number: Number(number[1]), ...who };
  const press = /^\/?press(?:\s+([\s\S]*))?$/i.exec(text);
  if (press) {
    const found = /^(\d+)\s+(\S[\s\S]*)$/.exec(press[1]?.trim() ?? '');
    if (!found) return { kind: 'error', message: say.t('shell-line-press-usage') };
    return {
      kind: 'pressLabel',
      card: found[1] as string,
      label: unquote((found[2] as string).trim()),
      ...who,
    };
  }
  return { kind: 'command', text, ...who };
}
