/**
 * Help that fits in one message on every platform: the overview names the sections (one per
 * service, and accounts) and their command groups; `/help <section>` lists a
 * section's groups, one line each; `/help <group>` and `/help <command>` go deeper.
 */
import { didYouMean } from './did-you-mean';
import { UsageError } from './errors';
import { commandHelp, prefixHelp } from './help';
import type { CommandRegistry } from './registry';
import type { ActionRequest, DraftCard } from './reply';

/** One section of the help: a service and its command groups. */
export interface HelpSection {
  /** The word after `/help` (`tools`, `calendar`, …). */
  id: string;
  /** Shown as its heading (`Calendar`). */
  title: string;
  /** Its command groups (first words of command names), each with a few words on what it does. */
  groups: Readonly<Record<string, string>>;
}

/** The help's sections and the commands a newcomer needs first. */
export interface HelpGuide {
  sections: readonly HelpSection[];
  /** Command lines shown first in the overview and the welcome (`/deploy <tool>`). */
  firstSteps: readonly string[];
}

const DETAILS = 'Type /help <section> or /help <command> (e.g. /help deploy) for more.';

/** Buttons that open each section's help. */
function sectionButtons(guide: HelpGuide): ActionRequest[] {
  return guide.sections.map((section) => ({
    label: section.title,
    command: 'help',
    args: { topic: [section.id] },
  }));
}

/** The command groups no section names (new commands), so the overview never hides one. */
function unlisted(registry: CommandRegistry<unknown>, guide: HelpGuide): string[] {
  const listed = new Set(guide.sections.flatMap((section) => Object.keys(section.groups)));
  return registry.groups().filter((group) => !listed.has(group) && group !== 'help');
}

/** `/help`: the first steps, then each section with its command groups. */
export function overviewHelp(registry: CommandRegistry<unknown>, guide: HelpGuide): DraftCard {
  const fields = guide.sections.map((section) => ({
    label: `${section.title} (/help ${section.id})`,
    value: Object.keys(section.groups)
      .filter((group) => registry.group(group).length > 0)
      .map((group) => `/${group}`)
      .join(' '),
  }));
  const others = unlisted(registry, guide);
  if (others.length > 0) fields.push({ label: 'More', value: others.map((g) => `/${g}`).join(' ') });
  return {
    title: 'Deckhand commands',
    text: `Start with ${guide.firstSteps.join(', ')}.`,
    fields,
    footer: DETAILS,
    actions: sectionButtons(guide),
    status: 'info',
    visibility: 'private',
  };
}

/** `/help <section>`: one line per command group with its subcommands. */
export function sectionHelp(registry: CommandRegistry<unknown>, section: HelpSection): DraftCard {
  const lines = Object.entries(section.groups).flatMap(([group, about]) => {
    const members = registry.group(group);
    if (members.length === 0) return [];
    const subcommands = registry.nextWords([group]);
    const name = subcommands.length > 0 ? `/${group} ${subcommands.join('|')}` : `/${group}`;
    return [`${name} — ${about}`];
  });
  return {
    title: section.title,
    text: lines.join('\n'),
    footer: 'Type /help <command> (e.g. /help build start) for its arguments and examples.',
    status: 'info',
    visibility: 'private',
  };
}

/** The welcome (a platform's `/start`): what Deckhand is, the first steps, and buttons into the help. */
export function welcomeHelp(guide: HelpGuide): DraftCard {
  return {
    title: 'Welcome to Deckhand',
    text: [
      'I deploy and watch your tools, post calendar events and manage your media files from this chat.',
      `Try ${guide.firstSteps.join(', ')}.`,
    ].join('\n'),
    footer: 'Type /help for every command.',
    actions: [{ label: 'All commands', command: 'help', args: { topic: [] } }, ...sectionButtons(guide)],
    status: 'info',
  };
}

/**
 * The help for the words after `/help`: a command, a section, a command group or the start of a
 * command's name (`media folder`). Anything else is a usage error with the closest topics.
 */
export function helpFor(
  registry: CommandRegistry<unknown>,
  guide: HelpGuide,
  topic: readonly string[],
): DraftCard {
  const words = topic.map((word) => word.replace(/^\//, '').toLowerCase()).filter(Boolean);
  if (words.length === 0) return overviewHelp(registry, guide);
  const exact = registry.get(words.join(' '));
  if (exact) return commandHelp(exact);
  const section = words.length === 1 ? guide.sections.find((s) => s.id === words[0]) : undefined;
  const sectionGroups = section ? Object.keys(section.groups) : [];
  if (section && !(sectionGroups.length === 1 && sectionGroups[0] === section.id)) {
    return sectionHelp(registry, section);
  }
  const members = registry.all().filter((c) => c.name.startsWith(`${words.join(' ')} `));
  if (members.length === 1) return commandHelp(members[0] as never);
  if (members.length > 1) return prefixHelp(registry, words);
  const names = [...guide.sections.map((s) => s.id), ...registry.all().map((c) => c.name)];
  const guess = didYouMean(words.join(' '), names, (name) => `/help ${name}`);
  throw new UsageError(`There is no command /${words.join(' ')}.`, {
    hint: `${guess ? `${guess} ` : ''}Type /help to see them all.`,
  });
}
