import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import type { CommandContext } from '../../src/core/command';
import { UsageError } from '../../src/core/errors';
import type { DraftCard } from '../../src/core/reply';
import type { TailKind, TailRequest, TailView } from '../../src/core/tail';
import { toolName } from '../args';
import { command, type ToolhostServices } from './context';
import { formatLogEntry } from './log-format';

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
      actions: [
        actionTo(tailStopCommand, { kind: data.kind, tool: data.tool, id: data.id }, { label: 'Stop' }),
      ],
      footer: `${total} line${total === 1 ? '' : 's'} so far · updated ${new Date().toISOString().slice(11, 19)} UTC`,
    };
  },
  ended(data, transcript, reason) {
    const name = `${data.tool}-${data.id}.log`;
    return {
      title: `Log of ${subject(data)}`,
      text: `Stopped following: ${reason}. The whole transcript (${transcript.length} lines) is attached.`,
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
  kind: TailKind,
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

/** `/tail stop <kind> <tool> <id>`: the Stop button of a live log. */
export const tailStopCommand = command({
  name: 'tail stop',
  summary: 'Stop following a live log in this conversation (the Stop button)',
  args: z.object({
    kind: z.enum(['job', 'build']).describe('what is followed'),
    tool: toolName,
    id: z.string().min(1).max(200).describe('the job name or build id'),
  }),
  positional: ['kind', 'tool', 'id'],
  examples: ['/tail stop job mytool web'],
  permission: 'read',
  sideEffect: true,
  async run({ args, services, invocation }) {
    const stopped = await services.tails.stop(args.kind, args.tool, args.id, invocation.conversationId);
    if (!stopped) throw new UsageError(`Nothing is following the ${subject(args)} here any more.`);
    return {
      text: `Stopping; the transcript of the ${subject(args)} follows on the card.`,
      status: 'info',
      visibility: 'private',
    };
  },
});
