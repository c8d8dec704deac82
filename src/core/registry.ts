import type { AnyCommand } from './command';
import { didYouMean } from './did-you-mean';
import { UsageError } from './errors';
import type { Token } from './tokenize';
import { subcommandLater } from './word-order';

/** All commands, looked up by their space-separated path. */
export class CommandRegistry<S = unknown> {
  private readonly byName = new Map<string, AnyCommand<S>>();

  constructor(commands: readonly AnyCommand<S>[] = []) {
    for (const command of commands) this.add(command);
  }

  /** Adds a command; a duplicate name is a programming error. */
  add(command: AnyCommand<S>): void {
    if (this.byName.has(command.name)) throw new Error(`duplicate command ${command.name}`);
    this.byName.set(command.name, command);
  }

  /** Every command, in registration order. */
  all(): AnyCommand<S>[] {
    return [...this.byName.values()];
  }

  /** The command with this exact name, if any. */
  get(name: string): AnyCommand<S> | undefined {
    return this.byName.get(name);
  }

  /** Names of the top-level groups (`deploy`, `calendar`, …) in registration order. */
  groups(): string[] {
    return [...new Set(this.all().map((c) => c.name.split(' ')[0] as string))];
  }

  /** The commands of one group. */
  group(group: string): AnyCommand<S>[] {
    return this.all().filter((c) => c.name === group || c.name.startsWith(`${group} `));
  }

  /**
   * The words that come after `prefix` in command names (`media` → `upload`, `list`, `folder`, …), in
   * registration order, each once.
   */
  nextWords(prefix: readonly string[]): string[] {
    const head = prefix.join(' ');
    const words = this.all()
      .map((c) => c.name.split(' '))
      .filter((parts) => parts.length > prefix.length && parts.slice(0, prefix.length).join(' ') === head)
      .map((parts) => parts[prefix.length] as string);
    return [...new Set(words)];
  }

  /**
   * Finds the command the leading words name (longest match) and returns it with the rest of the
   * tokens. Words that name a group but no command (`/media`, `/media folder`) resolve to `/help` for
   * that group. An unknown group or subcommand is a {@link UsageError} with the closest names.
   */
  resolve(tokens: readonly Token[]): { command: AnyCommand<S>; rest: Token[] } {
    const words = tokens.map((t) => (t.quoted ? '\u0000' : t.text.toLowerCase()));
    const group = words[0]?.replace(/^\//, '').replace(/@\w+$/, '');
    if (!group) throw UsageError.inWords((say) => ({ message: say.t('command-line-empty') }));
    if (this.group(group).length === 0) {
      const groups = this.groups();
      // A pasted wall of text is named by its start only.
      const shown = group.length > 40 ? `${Array.from(group).slice(0, 40).join('')}…` : group;
      throw UsageError.inWords((say) => {
        const guess = didYouMean(group, groups, (g) => `/${g}`, say);
        return {
          message: say.t('command-unknown', shown),
          hint: `${guess ? `${guess} ` : ''}${say.t('command-unknown-hint')}`,
        };
      });
    }
    for (let length = Math.min(words.length, 4); length >= 1; length--) {
      const name = [group, ...words.slice(1, length)].join(' ');
      const command = this.byName.get(name);
      if (command) return { command, rest: tokens.slice(length) };
    }
    const path = [group];
    while (path.length < words.length && this.nextWords([...path, words[path.length] as string]).length > 0) {
      path.push(words[path.length] as string);
    }
    const help = this.byName.get('help');
    const given = tokens[path.length];
    if (!given && help) {
      return { command: help, rest: path.map((text) => ({ text, quoted: false })) };
    }
    const choices = this.nextWords(path);
    const where = `/${path.join(' ')}`;
    const after = tokens.slice(path.length);
    throw UsageError.inWords((say) => {
      const guess = given
        ? (subcommandLater(path, after, choices, say) ??
          didYouMean(given.text, choices, (w) => `\`${where} ${w}\``, say))
        : undefined;
      return {
        message: given
          ? say.t('command-unknown-subcommand', given.text, where)
          : say.t('command-needs-subcommand', where),
        hint: guess ?? say.t('command-choose-subcommand', choices.join(', '), path.join(' ')),
      };
    });
  }
}
