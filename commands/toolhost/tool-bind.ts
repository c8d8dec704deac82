import { z } from 'zod';
import { toolName } from '../args';
import { command } from './context';

/** `/tool bind <tool>`: lets `<tool>` be left out of commands in this conversation. */
export const toolBindCommand = command({
  name: 'tool bind',
  summary: 'Bind this conversation to a tool, so commands here may leave out <tool>',
  args: z.object({ tool: toolName }),
  positional: ['tool'],
  examples: ['/tool bind mytool'],
  permission: 'write',
  sideEffect: true,
  async run({ args, services, invocation }) {
    await services.bindings.set(invocation.conversationId, args.tool);
    return {
      text: `This conversation is now bound to ${args.tool}: for example \`/deploy\` deploys ${args.tool}.`,
      status: 'success',
    };
  },
});
