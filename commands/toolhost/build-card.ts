import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { cardTime } from '../../src/core/times';
import type { Outcome, WatchKind } from '../../src/core/watch';
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

/** The status card of a build, with Logs and (while unfinished) Cancel buttons. */
export function buildCard(tool: string, build: Build, note?: string): DraftCard {
  const started = date(build.start_time);
  const ended = date(build.end_time);
  const fields: CardField[] = [{ label: 'Status', value: BUILD_WORD[build.status], inline: true }];
  if (build.parameters?.source_url) fields.push({ label: 'Source', value: build.parameters.source_url });
  const ref = [
    build.parameters?.ref,
    build.resolved_ref ? `(${build.resolved_ref.slice(0, 12)})` : undefined,
  ].filter(Boolean);
  if (ref.length) fields.push({ label: 'Ref', value: ref.join(' '), inline: true });
  if (build.destination_image) fields.push({ label: 'Image', value: build.destination_image });
  const startedAt = cardTime(started, { relative: true });
  if (startedAt) fields.push({ label: 'Started', value: '', time: startedAt, inline: true });
  if (started && ended)
    fields.push({ label: 'Took', value: formatDuration(ended.getTime() - started.getTime()), inline: true });
  const actions: ActionRequest[] = [
    actionTo(buildLogsSignature, { tool, id: build.build_id }, { label: 'Logs' }),
  ];
  if (!FINISHED_BUILD_STATUSES.has(build.status)) {
    actions.push(
      actionTo(buildCancelSignature, { tool, id: build.build_id }, { label: 'Cancel', style: 'danger' }),
    );
  }
  const lines = [
    build.message ? buildMessageInWords(build.message, tool) : `Build ${BUILD_WORD[build.status]}.`,
  ];
  if (note) lines.unshift(note);
  return {
    title: `Build of ${tool}`,
    text: lines.join('\n'),
    status: STATUS[build.status],
    fields,
    actions,
    footer: `build ${build.build_id}`,
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
  async observe(services, tool, id) {
    const client = services.toolhost.forTool(tool);
    const build = await client.builds.show(id);
    const outcome = BUILD_OUTCOME[build.status];
    const ref = build.parameters?.ref ? ` of ${build.parameters.ref}` : '';
    return {
      state: BUILD_WORD[build.status],
      terminal: FINISHED_BUILD_STATUSES.has(build.status),
      ...(outcome ? { outcome } : {}),
      detail: `Build ${build.build_id}${ref}: ${build.message ? buildMessageInWords(build.message, tool) : BUILD_WORD[build.status]}`,
      card: withWarnings(buildCard(tool, build), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: `Build of ${tool}`, footer: `build ${id}` },
      `build ${id}`,
      reason,
      `/build show ${tool} ${id}`,
    );
  },
  announce(event) {
    return announcement(
      event,
      'build',
      actionTo(buildLogsSignature, { tool: event.tool, id: event.id }, { label: 'Logs' }),
    );
  },
};
