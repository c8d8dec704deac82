import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { cardTime } from '../../src/core/times';
import type { Outcome, WatchKind } from '../../src/core/watch';
import { type Translator, translator } from '../../src/i18n/translate';
import { type Build, type BuildStatus, FINISHED_BUILD_STATUSES } from '../../src/services/toolhost';
import { buildMessageInWords, formatDuration, withWarnings } from '../format';
import type { AppServices } from '../services';
import { announcement, stoppedFollowing } from './announce';
import { buildCancelSignature, buildLogsSignature } from './signatures';

const STATUS: Record<BuildStatus, CardStatus> = {
  BUILD_PENDING: 'progress',
  BUILD_RUNNING: 'progress',
  BUILD_SUCCESS: 'success',
  BUILD_FAILURE: 'danger',
  BUILD_CANCELLED: 'warning',
  BUILD_TIMEOUT: 'danger',
  BUILD_UNKNOWN: 'warning',
};

/** `BUILD_SUCCESS` → `ok`, as the platform's own CLI shows statuses. */
export const BUILD_WORD: Record<BuildStatus, string> = {
  BUILD_PENDING: 'pending',
  BUILD_RUNNING: 'running',
  BUILD_SUCCESS: 'ok',
  BUILD_FAILURE: 'error',
  BUILD_CANCELLED: 'cancelled',
  BUILD_TIMEOUT: 'timeout',
  BUILD_UNKNOWN: 'unknown',
};

/**
 * A build time as a date, or undefined when it is absent or not a date: the spec types
 * `start_time`/`end_time` as any string (builds-openapi.yaml `Build`), the service sends RFC 3339
 * or "" (B internal/build.go `getBuild`).
 */
function date(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

const ENGLISH = translator('en');

/** The status card of a build, with Logs and (while unfinished) Cancel buttons. */
export function buildCard(tool: string, build: Build, note?: string, say: Translator = ENGLISH): DraftCard {
  const started = date(build.start_time);
  const ended = date(build.end_time);
  const fields: CardField[] = [
    { label: say.t('deploy-field-status'), value: BUILD_WORD[build.status], inline: true },
  ];
  if (build.parameters?.source_url)
    fields.push({ label: say.t('build-field-source'), value: build.parameters.source_url });
  const ref = [
    build.parameters?.ref,
    build.resolved_ref ? `(${build.resolved_ref.slice(0, 12)})` : undefined,
  ].filter(Boolean);
  if (ref.length) fields.push({ label: say.t('build-field-ref'), value: ref.join(' '), inline: true });
  if (build.destination_image)
    fields.push({ label: say.t('build-field-image'), value: build.destination_image });
  const startedAt = cardTime(started, { relative: true });
  if (startedAt)
    fields.push({ label: say.t('deploy-field-started'), value: '', time: startedAt, inline: true });
  if (started && ended)
    fields.push({
      label: say.t('build-field-took'),
      value: formatDuration(ended.getTime() - started.getTime()),
      inline: true,
    });
  const actions: ActionRequest[] = [
    actionTo(buildLogsSignature, { tool, id: build.build_id }, { label: say.t('announce-button-logs') }),
  ];
  if (!FINISHED_BUILD_STATUSES.has(build.status)) {
    actions.push(
      actionTo(
        buildCancelSignature,
        { tool, id: build.build_id },
        { label: say.t('deploy-button-cancel'), style: 'danger' },
      ),
    );
  }
  const lines = [
    build.message
      ? buildMessageInWords(build.message, tool)
      : say.t('build-card-state', BUILD_WORD[build.status]),
  ];
  if (note) lines.unshift(note);
  return {
    title: say.t('build-card-title', tool),
    text: lines.join('\n'),
    status: STATUS[build.status],
    fields,
    actions,
    footer: say.t('build-card-footer', build.build_id),
    locale: say.language,
  };
}

const BUILD_OUTCOME: Partial<Record<BuildStatus, Outcome>> = {
  BUILD_SUCCESS: 'success',
  BUILD_FAILURE: 'failure',
  BUILD_TIMEOUT: 'failure',
  BUILD_CANCELLED: 'cancelled',
};

/** Follows a build until it succeeds, fails, times out or is cancelled. */
export const buildWatch: WatchKind<AppServices> = {
  name: 'build',
  async observe(services, tool, id, say = ENGLISH) {
    const client = services.toolhost.forTool(tool);
    const build = await client.builds.show(id);
    const outcome = BUILD_OUTCOME[build.status];
    const ref = build.parameters?.ref ? ` of ${build.parameters.ref}` : '';
    return {
      state: BUILD_WORD[build.status],
      terminal: FINISHED_BUILD_STATUSES.has(build.status),
      outcome,
      detail: `Build ${build.build_id}${ref}: ${build.message ? buildMessageInWords(build.message, tool) : BUILD_WORD[build.status]}`,
      card: withWarnings(buildCard(tool, build, undefined, say), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: ENGLISH.t('build-card-title', tool), footer: ENGLISH.t('build-card-footer', id) },
      ENGLISH.t('build-card-footer', id),
      reason,
      `/build show ${tool} ${id}`,
    );
  },
  announce(event, say = ENGLISH) {
    return announcement(
      event,
      'build',
      actionTo(
        buildLogsSignature,
        { tool: event.tool, id: event.id },
        { label: say.t('announce-button-logs') },
      ),
      [],
      {
        say,
        noun: say.t('announce-noun-build'),
        footer: say.t('build-card-footer', event.id),
      },
    );
  },
};
