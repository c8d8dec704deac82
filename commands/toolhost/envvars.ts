import { z } from 'zod';
import { formTarget } from '../../src/core/action-ref';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import { mustExist } from '../../src/core/target';
import { t, translator } from '../../src/i18n/translate';
import { maskSecret } from '../../src/secrets';
import { ENVVAR_NAME, type ToolhostClient } from '../../src/services/toolhost';
import { toolName } from '../args';
import { table, withWarnings } from '../format';
import { command, toolCommand } from './context';

const ENGLISH = translator('en');

/** The value of a tool's variable; undefined when it has none of that name. */
async function currentValue(client: ToolhostClient, name: string): Promise<string | undefined> {
  try {
    return (await client.envvars.show(name)).value;
  } catch (error) {
    if (error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404))
      return undefined;
    throw error;
  }
}

const envvarName = z
  .string()
  .regex(ENVVAR_NAME, t('en', 'envvar-invalid-name'))
  .meta({ invalid: 'envvar-invalid-name' })
  .describe('opt-name-envvars-show');

/**
 * `/envvars list <tool>`: names with masked values. Listing, showing and setting register the values
 * that are secrets by the envvar rule (`envvarIsSecret`: a secret name such as `*_TOKEN`, or a
 * credential shape), so they are masked in the logs shown on this tool's cards; `running` under
 * `APP_STATE` is not, and changes nothing anywhere.
 */
export const envvarsListCommand = toolCommand({
  name: 'envvars list',
  permission: 'read',
  async run({ args, services, client, say = ENGLISH }) {
    const envvars = await client.envvars.list();
    if (envvars.length === 0) return { text: say.t('envvar-none', args.tool), status: 'info' };
    for (const envvar of envvars)
      await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    const rows = envvars.map((e) => [e.name, maskSecret(e.value)]);
    return {
      title: say.t('envvar-list-title', args.tool),
      code: { text: table([['NAME', 'VALUE'], ...rows]) },
      status: 'info',
      footer: say.t('envvar-list-footer'),
    };
  },
});

/** `/envvars show <tool> <NAME>` (private conversations only). */
export const envvarsShowCommand = command({
  name: 'envvars show',
  args: z.object({ tool: toolName, name: envvarName }),
  positional: ['tool', 'name'],
  examples: ['/envvars show mytool API_TOKEN'],
  permission: 'write',
  sideEffect: false,
  async run({ args, services, invocation, sayPrivately = ENGLISH }) {
    if (!invocation.isPrivate) {
      throw UsageError.inWords((say) => ({
        message: say.t('envvar-show-private-only'),
        hint: say.t('envvar-private-hint'),
      }));
    }
    const client = services.toolhost.forTool(args.tool);
    const envvar = await client.envvars.show(args.name);
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    return withWarnings(
      {
        title: sayPrivately.t('envvar-show-title', envvar.name, args.tool),
        fields: [{ label: sayPrivately.t('envvar-field-value'), value: envvar.value }],
        status: 'info',
        visibility: 'private',
      },
      client,
    );
  },
});

/**
 * `/envvars set <tool> <NAME> [VALUE]`: only in a private conversation or a form. In a channel without a
 * value it opens a form where the platform has one; a value typed into a channel is refused.
 */
export const envvarsSetCommand = command({
  name: 'envvars set',
  args: z.object({
    tool: toolName,
    name: envvarName,
    value: z.string().min(1).max(65536).optional().describe('opt-value'),
  }),
  positional: ['tool', 'name', 'value'],
  examples: ['/envvars set mytool API_TOKEN', '/envvars set mytool API_TOKEN s3cr3t   (in a direct message)'],
  permission: 'write',
  secretArgs: ['value'],
  effect: {
    check: (args) => `/envvars show ${args.tool} ${args.name}`,
    // The variable holding the value given (or missing: not set yet) tells; another value may be
    // someone else's change since, which running again would overwrite.
    async recover({ args, services }) {
      if (args.value === undefined) return 'run';
      const current = await currentValue(services.toolhost.forTool(args.tool), args.name);
      return current === undefined || current === args.value ? 'run' : undefined;
    },
  },
  async run({ args, services, invocation, openForm, interrupted, say = ENGLISH, sayPrivately = ENGLISH }) {
    if (args.value !== undefined && !invocation.isPrivate) {
      throw UsageError.inWords((said) => ({
        message: said.t('envvar-set-private-only'),
        hint: said.t('envvar-set-leaked'),
      }));
    }
    if (args.value === undefined) {
      const opened = await openForm({
        ...formTarget(envvarsSetCommand, { tool: args.tool, name: args.name }),
        title: sayPrivately.t('envvar-form-title', args.name, args.tool),
        intro: sayPrivately.t('envvar-form-intro'),
        fields: [
          {
            name: 'value',
            label: sayPrivately.t('envvar-form-label', args.name),
            secret: true,
            multiline: false,
          },
        ],
        submitLabel: sayPrivately.t('secret-form-save'),
      });
      if (opened)
        return {
          text: sayPrivately.t('envvar-form-opened', args.name, args.tool),
          status: 'info',
          visibility: 'private',
        };
      throw UsageError.inWords((said) => ({ message: said.t('envvar-give-value', args.tool, args.name) }));
    }
    const client = services.toolhost.forTool(args.tool);
    const done = interrupted && (await currentValue(client, args.name)) === args.value;
    const envvar = done
      ? { name: args.name, value: args.value }
      : await client.envvars.set(args.name, args.value);
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, args.value);
    return withWarnings(
      {
        text: say.t('envvar-set', envvar.name, args.tool, maskSecret(envvar.value)),
        status: 'success',
      },
      client,
    );
  },
});

/** `/envvars delete <tool> <NAME>` (confirmed first). */
export const envvarsDeleteCommand = toolCommand({
  name: 'envvars delete',
  args: z.object({ tool: toolName, name: envvarName }),
  positional: ['tool', 'name'],
  examples: ['/envvars delete mytool API_TOKEN'],
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args, _target, say = ENGLISH) => say.t('envvar-delete-confirm', args.name, args.tool),
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const envvar = await mustExist(
      () => client.envvars.show(args.name),
      (say) => ({
        message: say.t('envvar-not-found', args.name, args.tool),
        hint: say.t('envvar-not-found-hint', args.tool),
      }),
    );
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    // No version: the value is a secret and is not kept with the button; the name is the target.
    return { label: t('en', 'envvar-label', args.name, args.tool), args };
  },
  async run({ args, client, say = ENGLISH }) {
    const envvar = await client.envvars.delete(args.name);
    return { text: say.t('envvar-deleted', envvar.name, args.tool), status: 'success' };
  },
});

/** `/envvars quota <tool>`. */
export const envvarsQuotaCommand = toolCommand({
  name: 'envvars quota',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const quota = await client.envvars.quotas();
    const unknown = say.t('deploy-field-unknown');
    return {
      title: say.t('envvar-quota-title', args.tool),
      fields: [
        { label: say.t('envvar-field-used'), value: String(quota.used ?? unknown), inline: true },
        { label: say.t('envvar-field-quota'), value: String(quota.quota ?? unknown), inline: true },
        { label: say.t('envvar-field-available'), value: String(quota.available ?? unknown), inline: true },
      ],
      status: 'info',
    };
  },
});
