/**
 * `/tool protect`, `/tool unprotect`: a tool's protect policy. A protected command of the tool posts
 * an approval card and runs only once a different maintainer of the tool approves it.
 */
import { z } from 'zod';
import { actionWord, covers, type ToolProtection } from '../../src/core/approvals';
import { UsageError } from '../../src/core/errors';
import type { CardField } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import { toolName } from '../args';
import { command } from './context';

/** The most approvers a policy can ask for. */
const MAX_APPROVERS = 5;

/** The fields that describe a policy. */
function protectionFields(protection: ToolProtection, say: Translator): CardField[] {
  return [
    { label: say.t('protect-field-protected'), value: protection.actions.join(', ') },
    { label: say.t('protect-field-approvals'), value: say.number(protection.approvers) },
    { label: say.t('protect-field-set-by'), value: protection.by, time: { at: protection.at } },
  ];
}

/** The action words a maintainer may protect: the state-changing commands that act on a tool. */
function protectable(commands: Iterable<{ name: string; sideEffect: boolean; args: unknown }>): string[] {
  const words = new Set<string>();
  for (const found of commands) {
    const shape = (found.args as z.ZodObject).shape as Record<string, unknown> | undefined;
    if (!found.sideEffect || !shape || !('tool' in shape) || found.name.startsWith('tool ')) continue;
    const parts = actionWord(found.name).split('-');
    for (let i = 1; i <= parts.length; i++) words.add(parts.slice(0, i).join('-'));
  }
  return [...words].sort();
}

/** `/tool protect <tool> [actions] [--approvers 1]`. */
export const toolProtectCommand = command({
  name: 'tool protect',
  args: z.object({
    tool: toolName,
    actions: z.string().max(300).optional().describe('opt-actions'),
    approvers: z.coerce.number().int().min(1).max(MAX_APPROVERS).default(1).describe('opt-approvers'),
  }),
  positional: ['tool', 'actions'],
  examples: ['/tool protect mytool deploy,envvars,jobs-delete', '/tool protect mytool deploy --approvers 2'],
  permission: 'write',
  effect: { check: (args) => `/tool protect ${args.tool}`, recover: async () => 'run' },
  async run({ args, services, invocation, say = translator('en') }) {
    const store = services.accounts.approvals;
    if (!args.actions?.trim()) {
      const current = await store.protection(args.tool);
      if (!current) {
        return {
          text: say.t('protect-none', args.tool),
          status: 'info',
          audit: 'unchanged',
        };
      }
      return {
        title: say.t('protect-list-title', args.tool),
        fields: protectionFields(current, say),
        status: 'info',
        audit: 'unchanged',
      };
    }
    const known = protectable(services.registry.all());
    const words = [...new Set(args.actions.split(/[\s,]+/).map((w) => w.trim().toLowerCase()))].filter(
      Boolean,
    );
    const unknown = words.filter((word) => !known.includes(word));
    if (unknown.length > 0) {
      const given = unknown.join(', ');
      const choices = known.join(', ');
      throw UsageError.inWords((say) => ({
        message: say.t('protect-unknown', given),
        hint: say.t('protect-unknown-hint', choices),
      }));
    }
    const protection: ToolProtection = {
      tool: args.tool,
      actions: words,
      approvers: args.approvers,
      by: invocation.user.name,
      at: Date.now(),
    };
    await store.protect(protection);
    const covered = services.registry
      .all()
      .filter((found) => found.sideEffect && words.some((word) => covers(word, found.name)))
      .map((found) => `/${found.name}`);
    return {
      title: say.t('protect-set-title', args.tool),
      text: say.t('protect-set-text', covered.join(', '), args.tool, 30),
      fields: protectionFields(protection, say),
      status: 'success',
    };
  },
});

/** `/tool unprotect <tool>`. */
export const toolUnprotectCommand = command({
  name: 'tool unprotect',
  args: z.object({ tool: toolName }),
  permission: 'write',
  effect: { check: (args) => `/tool protect ${args.tool}`, recover: async () => 'run' },
  async run({ args, services, say = translator('en') }) {
    const removed = await services.accounts.approvals.unprotect(args.tool);
    if (!removed) {
      return {
        text: say.t('protect-unprotect-none', args.tool),
        status: 'info',
        audit: 'unchanged',
      };
    }
    return {
      title: say.t('protect-removed-title', args.tool),
      text: say.t('protect-removed-text', removed.actions.join(', '), args.tool),
      status: 'success',
    };
  },
});
