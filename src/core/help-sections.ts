/**
 * Help that fits in one message on every platform: the overview names the sections (one per
 * service, and accounts) and their command groups; `/help <section>` lists a
 * section's groups, one line each; `/help <group>` and `/help <command>` go deeper.
 */
import { type MessageKey, type Translator, translator } from '../i18n/translate';
import { didYouMean } from './did-you-mean';
import { UsageError } from './errors';
import { commandHelp, prefixHelp } from './help';
import type { CommandRegistry } from './registry';
import type { ActionRequest, DraftCard } from './reply';

/** One section of the help: a service and its command groups. */
export interface HelpSection {
  /** The word after `/help` (`tools`, `calendar`, …). */
  id: string;
  /** Shown as its heading (`Calendar`): a catalog key. */
  title: MessageKey;
  /** Its command groups (first words of command names), each with a few words on what it does (a catalog key). */
  groups: Readonly<Record<string, MessageKey>>;
}

/** English, for callers that name no reader. */
const ENGLISH = translator('en');

/** The help's sections and the commands a newcomer needs first. */
export interface HelpGuide {
  sections: readonly HelpSection[];
  /** Command lines shown first in the overview and the welcome (`/deploy <tool>`). */
  firstSteps: readonly string[];
}

/** Buttons that open each section's help. */
function sectionButtons(guide: HelpGuide, say: Translator): ActionRequest[] {
  return guide.sections.map((section) => ({
    label: say.t(section.title),
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
export function overviewHelp(
  registry: CommandRegistry<unknown>,
  guide: HelpGuide,
  say: Translator = ENGLISH,
): DraftCard {
  const fields = guide.sections.map((section) => ({
    label: say.t('help-section-label', say.t(section.title), section.id),
    value: Object.keys(section.groups)
      .filter((group) => registry.group(group).length > 0)
      .map((group) => `/${group}`)
      .join(' '),
  }));
  const others = unlisted(registry, guide);
  if (others.length > 0)
    fields.push({ label: say.t('help-more'), value: others.map((g) => `/${g}`).join(' ') });
  return {
    title: say.t('help-title'),
    text: say.t('help-start-with', guide.firstSteps.join(', ')),
    fields,
    footer: say.t('help-details'),
    actions: sectionButtons(guide, say),
    status: 'info',
    visibility: 'private',
  };
}

/** `/help <section>`: one line per command group with its subcommands. */
export function sectionHelp(
  registry: CommandRegistry<unknown>,
  section: HelpSection,
  say: Translator = ENGLISH,
): DraftCard {
  const lines = Object.entries(section.groups).flatMap(([group, about]) => {
    const members = registry.group(group);
    if (members.length === 0) return [];
    const subcommands = registry.nextWords([group]);
    const name = subcommands.length > 0 ? `/${group} ${subcommands.join('|')}` : `/${group}`;
    return [`${name} — ${say.t(about)}`];
  });
  return {
    title: say.t(section.title),
    text: lines.join('\n'),
    footer: say.t('help-section-footer'),
    status: 'info',
    visibility: 'private',
  };
}

/** The welcome (a platform's `/start`): what Deckhand is, the first steps, and buttons into the help. */
export function welcomeHelp(guide: HelpGuide, say: Translator = ENGLISH): DraftCard {
  return {
    title: say.t('help-welcome-title'),
    text: [say.t('help-welcome-text'), say.t('help-welcome-try', guide.firstSteps.join(', '))].join('\n'),
    footer: say.t('help-welcome-footer'),
    actions: [
      { label: say.t('help-welcome-all'), command: 'help', args: { topic: [] } },
      ...sectionButtons(guide, say),
    ],
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
  say: Translator = ENGLISH,
): DraftCard {
  const words = topic.map((word) => word.replace(/^\//, '').toLowerCase()).filter(Boolean);
  if (words.length === 0) return overviewHelp(registry, guide, say);
  const exact = registry.get(words.join(' '));
  if (exact) return commandHelp(exact, say);
  const section = words.length === 1 ? guide.sections.find((s) => s.id === words[0]) : undefined;
  const sectionGroups = section ? Object.keys(section.groups) : [];
  if (section && !(sectionGroups.length === 1 && sectionGroups[0] === section.id)) {
    return sectionHelp(registry, section, say);
  }
  const members = registry.all().filter((c) => c.name.startsWith(`${words.join(' ')} `));
  if (members.length === 1) return commandHelp(members[0] as never, say);
  if (members.length > 1) return prefixHelp(registry, words, say);
  const names = [...guide.sections.map((s) => s.id), ...registry.all().map((c) => c.name)];
  const asked = words.join(' ');
  throw UsageError.inWords((reader) => {
    const guess = didYouMean(asked, names, (name) => `/help ${name}`, reader);
    return {
      message: reader.t('help-no-command', asked),
      hint: `${guess ? `${guess} ` : ''}${reader.t('help-see-all')}`,
    };
  });
}
