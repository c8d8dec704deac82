import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import type { CommandContext } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { TailRequest, TailView } from '../../src/core/tail';
import { type Translator, translator } from '../../src/i18n/translate';
import { toolName } from '../args';
import { command, type ToolhostServices } from './context';
import { formatLogEntry } from './log-format';

/** What a live log follows on the tool platform. */
const TAIL_KINDS = ['job', 'build'] as const;

/** One of {@link TAIL_KINDS}. */
export type ToolTailKind = (typeof TAIL_KINDS)[number];

/** The Stop button's arguments: every tail is started by {@link startTail}, with a {@link ToolTailKind}. */
function stopArgs(data: Pick<TailRequest, 'kind' | 'tool' | 'id'>) {
  return { kind: data.kind as ToolTailKind, tool: data.tool, id: data.id };
}

function subject(data: Pick<TailRequest, 'kind' | 'tool' | 'id'>, say: Translator): string {
  return data.kind === 'job'
    ? say.t('tail-subject-job', data.id, data.tool)
    : say.t('tail-subject-build', data.id, data.tool);
}

/**
 * The cards of a live log tail, in `say`'s language. Each render looks its words up once: the live
 * card is edited every few seconds, its lines are the log's own.
 */
export function tailViewIn(say: Translator): TailView {
  return {
    live(data, lastLines, total) {
      return {
        title: say.t('tail-live-title', subject(data, say)),
        locale: say.language,
        status: 'progress',
        code: { text: lastLines.length ? lastLines.join('\n') : say.t('tail-waiting') },
        actions: [actionTo(tailStopCommand, stopArgs(data), { label: say.t('tail-button-stop') })],
        footer: say.t('tail-live-footer', total, new Date().toISOString().slice(11, 19)),
      };
    },
    ended(data, transcript, reason) {
      const name = `${data.tool}-${data.id}.log`;
      const why =
        reason === 'stopped' ? say.t('tail-stopped-as-asked') : say.t('tail-stopped-reason', reason);
      return {
        title: say.t('tail-ended-title', subject(data, say)),
        locale: say.language,
        text: say.t('tail-ended-text', why, transcript.length),
        status: 'info',
        code: { text: transcript.slice(-10).join('\n') || say.t('tail-no-lines') },
        attachments: [{ filename: name, content: `${transcript.join('\n')}\n` }],
        footer: say.t('tail-lines', transcript.length),
      };
    },
    formatEntry: formatLogEntry,
  };
}

/**
 * The cards of a live log tail in English: what the tail worker draws for a tail whose job carries no
 * language (see {@link tailViewIn} for the others).
 */
export const tailView: TailView = tailViewIn(translator('en'));

/**
 * Starts a tail for a command: posts the live card and queues the work. The card is written in the
 * reply's language (the conversation's, or the reader's in a private conversation), and the job
 * carries that language so that every edit and the final card are written in it too.
 */
export async function startTail(
  ctx: Pick<
    CommandContext<unknown, ToolhostServices>,
    'services' | 'reply' | 'invocation' | 'say' | 'sayPrivately'
  >,
  kind: ToolTailKind,
  tool: string,
  id: string,
): Promise<DraftCard | undefined> {
  const { services, invocation } = ctx;
  if (await services.tails.running(kind, tool, id, invocation.conversationId)) {
    const say = ctx.sayPrivately ?? translator('en');
    return {
      text: say.t('tail-already', subject({ kind, tool, id }, say)),
      status: 'info',
      visibility: 'private',
    };
  }
  const say = ctx.say ?? translator('en');
  const handle = await ctx.reply(tailViewIn(say).live({ kind, tool, id }, [], 0));
  if (!handle) return undefined;
  await services.tails.start({ kind, tool, id, handle, language: say.language });
  return undefined;
}

/** `/tail stop [<kind> <tool> <id>]`: the Stop button of a live log, or every tail here by name. */
export const tailStopCommand = command({
  name: 'tail stop',
  args: z.object({
    kind: z.enum(TAIL_KINDS).optional().describe('opt-kind'),
    tool: toolName.optional(),
    id: z.string().min(1).max(200).optional().describe('opt-id-tail-stop'),
  }),
  positional: ['kind', 'tool', 'id'],
  examples: ['/tail stop', '/tail stop job mytool web'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation, sayPrivately = translator('en') }): Promise<DraftCard> {
    const { kind, tool, id } = args;
    if (kind === undefined && tool === undefined && id === undefined) {
      return stopTheOnlyTail(services, invocation.conversationId, sayPrivately);
    }
    if (kind === undefined || tool === undefined || id === undefined) {
      throw UsageError.inWords((say) => ({
        message: say.t('tail-name-all-three'),
        hint: say.t('tail-name-all-three-hint'),
      }));
    }
    const target = { kind, tool, id };
    const stopped = await services.tails.stop(kind, tool, id, invocation.conversationId);
    if (!stopped) {
      throw UsageError.inWords((say) => ({ message: say.t('tail-nothing-following', subject(target, say)) }));
    }
    return {
      text: sayPrivately.t('tail-stopping', subject(target, sayPrivately)),
      status: 'info',
      visibility: 'private',
    };
  },
});

/** `/tail stop` with no arguments: stops the one live log here, or asks which when there are several. */
async function stopTheOnlyTail(
  services: ToolhostServices,
  conversationId: string,
  say: Translator,
): Promise<DraftCard> {
  const tails = await services.tails.inConversation(conversationId);
  if (tails.length === 0) {
    return {
      text: say.t('tail-none'),
      status: 'info',
      visibility: 'private',
    };
  }
  if (tails.length > 1) {
    return {
      title: say.t('tail-which-title'),
      text: say.t('tail-which-text', tails.length),
      status: 'info',
      visibility: 'private',
      actions: tails.map((t) =>
        actionTo(tailStopCommand, stopArgs(t), { label: say.t('tail-button-stop-subject', subject(t, say)) }),
      ),
    };
  }
  const [only] = tails as [Pick<TailRequest, 'kind' | 'tool' | 'id'>];
  await services.tails.stop(only.kind, only.tool, only.id, conversationId);
  return {
    text: say.t('tail-stopping-only', subject(only, say)),
    status: 'info',
    visibility: 'private',
  };
}
