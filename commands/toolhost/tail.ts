import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import type { CommandContext } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { TailRequest, TailView } from '../../src/core/tail';
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

function subject(data: Pick<TailRequest, 'kind' | 'tool' | 'id'>): string {
  return data.kind === 'job' ? `job ${data.id} of ${data.tool}` : `build ${data.id} of ${data.tool}`;
}

/** The cards of a live log tail. */
export const tailView: TailView = {
  live(data, lastLines, total) {
    return {
      title: `Live log: ${subject(data)}`,
      status: 'progress',
      code: { text: lastLines.length ? lastLines.join('\n') : '(waiting for lines…)' },
      actions: [actionTo(tailStopCommand, stopArgs(data), { label: 'Stop' })],
      footer: `${total} line${total === 1 ? '' : 's'} so far · updated ${new Date().toISOString().slice(11, 19)} UTC`,
    };
  },
  ended(data, transcript, reason) {
    const name = `${data.tool}-${data.id}.log`;
    return {
      title: `Log of ${subject(data)}`,
      text: `${reason === 'stopped' ? 'Stopped following, as asked (Stop or /tail stop)' : `Stopped following: ${reason}`}. The whole transcript (${transcript.length} lines) is attached.`,
      status: 'info',
      code: { text: transcript.slice(-10).join('\n') || '(no lines)' },
      attachments: [{ filename: name, content: `${transcript.join('\n')}\n` }],
      footer: `${transcript.length} lines`,
    };
  },
  formatEntry: formatLogEntry,
};

/** Starts a tail for a command: posts the live card and queues the work. */
export async function startTail(
  ctx: Pick<CommandContext<unknown, ToolhostServices>, 'services' | 'reply' | 'invocation'>,
  kind: ToolTailKind,
  tool: string,
  id: string,
): Promise<DraftCard | undefined> {
  const { services, invocation } = ctx;
  if (await services.tails.running(kind, tool, id, invocation.conversationId)) {
    return {
      text: `The ${subject({ kind, tool, id })} is already being followed here.`,
      status: 'info',
      visibility: 'private',
    };
  }
  const handle = await ctx.reply(tailView.live({ kind, tool, id }, [], 0));
  if (!handle) return undefined;
  await services.tails.start({ kind, tool, id, handle });
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
  async run({ args, services, invocation }): Promise<DraftCard> {
    const { kind, tool, id } = args;
    if (kind === undefined && tool === undefined && id === undefined) {
      return stopTheOnlyTail(services, invocation.conversationId);
    }
    if (kind === undefined || tool === undefined || id === undefined) {
      throw new UsageError(
        'Name all three of <kind> <tool> <id>, or nothing to stop the live log of this conversation.',
        {
          hint: 'E.g. /tail stop job mytool web, or just /tail stop.',
        },
      );
    }
    const target = { kind, tool, id };
    const stopped = await services.tails.stop(kind, tool, id, invocation.conversationId);
    if (!stopped) throw new UsageError(`Nothing is following the ${subject(target)} here any more.`);
    return {
      text: `Stopping; the transcript of the ${subject(target)} follows on the card.`,
      status: 'info',
      visibility: 'private',
    };
  },
});

/** `/tail stop` with no arguments: stops the one live log here, or asks which when there are several. */
async function stopTheOnlyTail(services: ToolhostServices, conversationId: string): Promise<DraftCard> {
  const tails = await services.tails.inConversation(conversationId);
  if (tails.length === 0) {
    return {
      text: 'No live log is being followed in this conversation.',
      status: 'info',
      visibility: 'private',
    };
  }
  if (tails.length > 1) {
    return {
      title: 'Which live log?',
      text: `${tails.length} live logs are followed here: press the one to stop.`,
      status: 'info',
      visibility: 'private',
      actions: tails.map((t) => actionTo(tailStopCommand, stopArgs(t), { label: `Stop ${subject(t)}` })),
    };
  }
  const [only] = tails as [Pick<TailRequest, 'kind' | 'tool' | 'id'>];
  await services.tails.stop(only.kind, only.tool, only.id, conversationId);
  return {
    text: `Stopping the live log of the ${subject(only)}; its transcript follows on the card.`,
    status: 'info',
    visibility: 'private',
  };
}
