import type { Invocation } from '../src/core/command';
import { translators } from '../src/core/languages';
import type { CardField, DraftCard } from '../src/core/reply';
import type { Translator } from '../src/i18n/translate';
import type { VaultEntry } from '../src/store/vault';
import { type AppServices, command } from './services';

/** The command line of the view (what a platform's home screen runs as its viewer). */
export const HOME_LINE = '/me';

/** At most this many tools are shown, each with its chip (a few requests each: the view stays bounded). */
export const MAX_HOME_TOOLS = 8;

/** The person's tools. */
export interface HomeTools {
  /** Tools they maintain (configured, or push access through their linked account), sorted. */
  maintained: string[];
  /** Tools whose deploy token they linked and do not maintain (they may deploy them), sorted. */
  linked: string[];
  /** The tools in the view: maintained first, then linked, at most {@link MAX_HOME_TOOLS}. */
  shown: string[];
  /** How many of their tools were left out of the view. */
  more: number;
}

/** What every section sees. */
export interface HomeContext {
  services: AppServices;
  invocation: Invocation;
  /** What they linked (services and account names, never a value). */
  entries: VaultEntry[];
  tools: HomeTools;
  /** Unix ms the view is made at. */
  now: number;
  /** The reader's language (the view is private): every section writes in it. */
  say: Translator;
}

/** One part of the view: a heading with its lines. */
export interface HomePart {
  title: string;
  /** One line each; none: `empty` is shown instead. */
  lines: string[];
  /** Said when there are no lines (`none`). */
  empty?: string;
}

/** Builds one part of the view. */
export type HomeSection = (context: HomeContext) => Promise<HomePart>;

/** The parts of the view, each from the feature it belongs to, shown in this order. */
export interface HomeSections {
  /** The person's tools with a status chip each. */
  tools: HomeSection;
  /** Approvals they can decide (asked by someone else on their tools). */
  approvals: HomeSection;
  /** Failures they are on ("I'm on it"). */
  claims: HomeSection;
  /** The locks they hold. */
  locks: HomeSection;
  /** Which services they linked. */
  accounts: HomeSection;
  /** Their personal notification settings (`/notify`). */
  notificationSettings?: HomeSection;
}

/** The person's tools: maintained, then deploy tokens linked; the view's share of them. */
async function homeTools(services: AppServices, invocation: Invocation, entries: VaultEntry[]) {
  const maintained = await services.accounts.access.maintainedTools(invocation.user);
  const linked = entries
    .filter((entry) => entry.service.startsWith('tool:'))
    .map((entry) => entry.service.slice('tool:'.length))
    .filter((tool) => !maintained.includes(tool))
    .sort();
  const all = [...maintained, ...linked];
  return {
    maintained,
    linked,
    shown: all.slice(0, MAX_HOME_TOOLS),
    more: Math.max(0, all.length - MAX_HOME_TOOLS),
  };
}

/**
 * What the view says first: about the person's tools, or what would make a tool theirs (what to
 * link, or, with a source-host account linked that may push to no tool's repository, what to ask for).
 */
function headline(tools: HomeTools, entries: VaultEntry[], say: Translator): string {
  if (tools.maintained.length + tools.linked.length > 0) return say.t('home-headline');
  const login = entries.find((entry) => entry.service === 'source')?.meta.login;
  return typeof login === 'string' ? say.t('home-no-push', login) : say.t('home-nothing-linked');
}

/** The `/me` command over `sections`. */
export function homeCommand(sections: HomeSections) {
  return command({
    name: 'me',
    permission: 'read',
    async run({ services, invocation, sayPrivately }): Promise<DraftCard> {
      const say = sayPrivately ?? translators(invocation).sayPrivately;
      const entries = await services.accounts.vault.list(invocation.user);
      const tools = await homeTools(services, invocation, entries);
      const context: HomeContext = { services, invocation, entries, tools, now: Date.now(), say };
      // What waits for the person first: where a platform shows only a card's first fields, it shows these.
      const ordered = [
        sections.tools,
        sections.approvals,
        sections.claims,
        sections.locks,
        sections.accounts,
        sections.notificationSettings,
      ].filter((section): section is HomeSection => section !== undefined);
      const parts = await Promise.all(ordered.map((section) => section(context)));
      const fields: CardField[] = parts.map((part) => ({
        label: part.title,
        value: part.lines.length ? part.lines.join('\n') : (part.empty ?? say.t('home-none')),
      }));
      return {
        title: say.t('home-title'),
        text: headline(tools, entries, say),
        fields,
        status: 'info',
        visibility: 'private',
      };
    },
  });
}
