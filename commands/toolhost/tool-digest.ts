/**
 * The digest of one tool over one period (`/subscribe <tool> --digest daily@09:00`): deployments made
 * through Deckhand (who, what), the jobs that failed or restarted and the builds the watches saw end,
 * and the locks taken, from the change records and the watches' event log. Rendered by the one digest
 * renderer; a period with nothing in it posts nothing.
 */
import type { ChangeRecord } from '../../src/core/change-record';
import type { DigestPeriod } from '../../src/core/digest-period';
import { type DigestSection, digestCard } from '../../src/core/digest-view';
import type { DraftCard } from '../../src/core/reply';
import type { WatchEvent } from '../../src/core/watch';
import { type Translator, translator } from '../../src/i18n/translate';
import type { DigestJobData } from '../../src/queue/digest-scheduler';

/** Change records (audit commands) that count as deployments. */
const DEPLOY_COMMANDS = new Set(['deploy', 'rollback']);

/**
 * One more section of a tool's digest (claims waiting on the tool add theirs here): undefined or
 * empty lines when it has nothing for the period.
 */
export type ToolDigestSource = (tool: string, period: DigestPeriod) => Promise<DigestSection | undefined>;

/** Where a tool digest reads from. */
export interface ToolDigestSources {
  /** The change records of `tool`, newest first (the audit trail). */
  changes(tool: string, limit: number): Promise<ChangeRecord[]>;
  /** What the watches saw happen to `tool` in `[start, end)`. */
  events(tool: string, start: number, end: number): Promise<WatchEvent[]>;
  /** Further sections (open claims). */
  more?: readonly ToolDigestSource[];
}

/** Change records read per digest at most. */
const CHANGES_READ = 500;

function timeOf(at: number, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(at));
}

/** `ref=main, force-build`: what a deployment changed, from its arguments (the tool left out). */
function whatOf(record: ChangeRecord, say: Translator): string {
  const parts = Object.entries(record.args)
    .filter(([name, value]) => name !== 'tool' && value !== false && value !== undefined && value !== '')
    .map(([name, value]) => (value === true ? name : `${name}=${String(value)}`));
  return parts.length ? parts.join(', ') : say.t('tool-digest-current-source');
}

function reasonOf(record: ChangeRecord): string {
  const reason = record.args.reason;
  const text = Array.isArray(reason) ? reason.join(' ') : typeof reason === 'string' ? reason : '';
  return text ? `: ${text}` : '';
}

/** The digest card of `data.tool` for `period`, or undefined when nothing happened. */
export async function toolDigestCard(
  sources: ToolDigestSources,
  data: DigestJobData,
  period: DigestPeriod,
  // The conversation's language, when the digest runs on its schedule.
  say: Translator = translator('en'),
): Promise<DraftCard | undefined> {
  const tool = data.tool as string;
  const zone = data.timezone;
  const inPeriod = (at: number) => at >= period.start && at < period.end;
  const changes = (await sources.changes(tool, CHANGES_READ)).filter((r) => inPeriod(r.at)).reverse();
  const events = await sources.events(tool, period.start, period.end);
  const deployments = changes.filter((r) => DEPLOY_COMMANDS.has(r.command) && r.outcome === 'ok');
  const locks = changes.filter((r) => r.command === 'tool lock' && r.outcome === 'ok');
  const jobs = events.filter((e) => e.kind === 'job' && (e.outcome === 'failure' || /restart/i.test(e.to)));
  const builds = events.filter((e) => e.kind === 'build' && e.terminal);
  const line = (at: number, value: string) => ({ label: timeOf(at, zone), value });
  const sections: DigestSection[] = [
    {
      heading: say.t('tool-digest-deployments'),
      lines: deployments.map((r) =>
        line(r.at, say.t('tool-digest-deployment', r.command, r.name, whatOf(r, say))),
      ),
    },
    {
      heading: say.t('tool-digest-jobs'),
      lines: jobs.map((e) =>
        line(
          e.at,
          e.detail
            ? say.t('tool-digest-job-detail', e.id, e.to, e.detail)
            : say.t('tool-digest-job', e.id, e.to),
        ),
      ),
    },
    {
      heading: say.t('tool-digest-builds'),
      lines: builds.map((e) => line(e.at, say.t('tool-digest-build', e.id, e.to))),
    },
    {
      heading: say.t('tool-digest-locks'),
      lines: locks.map((r) => line(r.at, `${say.t('tool-digest-locked-by', r.name)}${reasonOf(r)}`)),
    },
  ];
  for (const source of sources.more ?? []) {
    const extra = await source(tool, period);
    if (extra) sections.push(extra);
  }
  return digestCard(
    {
      title:
        data.every === 'daily'
          ? say.t('tool-digest-title-daily', tool)
          : say.t('tool-digest-title-weekly', tool),
      sections,
      when: data,
      stop: `/subscribe ${tool} --digest off`,
      note: say.t('tool-digest-times-in', zone),
    },
    say,
  );
}
