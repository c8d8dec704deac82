/**
 * `/subscribe <tool> --digest daily@09:00|weekly@mon 09:00|off`: one message per tool per period in
 * this conversation (what the digest lists: `tool-digest.ts`), in the conversation's time zone. With a
 * digest, live announcements are kept to transitions (a failure after a success, a recovery).
 */
import { z } from 'zod';
import { type DigestWhen, digestWords } from '../../src/core/digest-view';
import { UsageError } from '../../src/core/errors';
import { absoluteText, DEFAULT_TIME_ZONE } from '../../src/core/times';
import { type Translator, translator } from '../../src/i18n/translate';
import type { DigestJobData } from '../../src/queue/digest-scheduler';
import { WEEKDAYS } from '../../src/services/calendar/weekdays';
import type { ToolhostServices } from './context';

/** The `--digest` option: checked in {@link parseDigest}. */
export const digestOption = z.string().max(40).optional().describe('opt-digest');

const SPEC = /^(daily|weekly)(?:@(?:(sun|mon|tue|wed|thu|fri|sat)[ @-]?)?((?:[01]?\d|2[0-3]):[0-5]\d)?)?$/i;

/** A `--digest` value read: off, or when the digest comes (its zone still to be chosen). */
export type DigestSpec = 'off' | Omit<DigestWhen, 'timezone'>;

/** Reads `daily@09:00`, `weekly@mon 09:00` (`weekly@mon@09:00`), `daily`, `weekly` or `off`. */
export function parseDigest(text: string): DigestSpec {
  const value = text.trim().toLowerCase();
  if (value === 'off') return 'off';
  const match = SPEC.exec(value);
  if (!match || (match[1] === 'daily' && match[2])) {
    throw UsageError.inWords((say) => ({
      message: say.t('subscribe-digest-invalid', text.slice(0, 40)),
      hint: say.t('subscribe-digest-invalid-hint'),
    }));
  }
  const [hour, minute] = (match[3] ?? '09:00').split(':') as [string, string];
  return {
    every: match[1] as 'daily' | 'weekly',
    at: `${hour.padStart(2, '0')}:${minute}`,
    weekday: WEEKDAYS.indexOf((match[2] ?? 'mon') as (typeof WEEKDAYS)[number]),
  };
}

/** Where and by whom a digest is set. */
export interface DigestTarget {
  tool: string;
  conversationId: string;
  user: { platform: DigestJobData['platform']; id: string };
}

/** Starts, changes or stops the conversation's digest of a tool; the reply's sentence. */
export async function applyDigest(
  services: Pick<ToolhostServices, 'digests' | 'timeZones'>,
  spec: DigestSpec,
  target: DigestTarget,
  say: Translator = translator('en'),
): Promise<string> {
  const { tool, conversationId } = target;
  if (spec === 'off') {
    const removed = await services.digests.remove(conversationId, tool);
    return removed ? say.t('subscribe-digest-stopped', tool) : say.t('subscribe-digest-none', tool);
  }
  const timezone = (await services.timeZones.get(conversationId)) ?? DEFAULT_TIME_ZONE;
  const stored = await services.digests.set({
    ...spec,
    conversationId,
    platform: target.user.platform,
    timezone,
    createdBy: `${target.user.platform}:${target.user.id}`,
    tool,
  });
  const text = say.t('subscribe-digest-set', digestWords(say, stored), tool);
  return stored.next
    ? `${text} ${say.t('subscribe-digest-first', absoluteText({ at: stored.next }, undefined, say.language))}`
    : text;
}
