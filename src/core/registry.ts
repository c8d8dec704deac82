import type { AnyCommand } from './command';
import { UsageError } from './errors';
import type { Token } from './tokenize';

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

  /** Names of the top-level groups (`deploy`, `build`, …) in registration order. */
  groups(): string[] {
    return [...new Set(this.all().map((c) => c.name.split(' ')[0] as string))];
  }

  /** The commands of one group. */
  group(group: string): AnyCommand<S>[] {
    return this.all().filter((c) => c.name === group || c.name.startsWith(`${group} `));
  }

  /**
   * Finds the command the leading words name (longest match) and returns it with the rest of the
   * tokens. Throws a {@link UsageError} naming the choices when the group or subcommand is unknown.
   */
  resolve(tokens: readonly Token[]): { command: AnyCommand<S>; rest: Token[] } {
    const words = tokens.map((t) => (t.quoted ? '\u0000' : t.text.toLowerCase()));
    const group = words[0]?.replace(/^\//, '').replace(/@\w+$/, '');
    if (!group) throw new UsageError('Type a command, for example `/help`.');
    const members = this.group(group);
    if (members.length === 0) {
      throw new UsageError(`Unknown command /${group}.`, {
        hint: `Commands: ${this.groups()
          .map((g) => `/${g}`)
          .join(', ')}. Try /help.`,
      });
    }
    for (let length = Math.min(words.length, 3); length >= 1; length--) {
      const name = [group, ...words.slice(1, length)].join(' ');
      const command = this.byName.get(name);
      if (command) return { command, rest: tokens.slice(length) };
    }
    const subcommands = members.map((c) => c.name.split(' ').slice(1).join(' ')).filter(Boolean);
    const given = tokens[1]?.text;
    const what = given ? `Unknown subcommand \`${given}\` for /${group}.` : `/${group} needs a subcommand.`;
    throw new UsageError(what, { hint: `Choose one of: ${subcommands.join(', ')}. Try /help ${group}.` });
  }
}
