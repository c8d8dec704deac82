import { z } from 'zod';
import { formTarget } from '../../src/core/action-ref';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import { mustExist } from '../../src/core/target';
import { maskSecret } from '../../src/secrets';
import { ENVVAR_NAME, type ToolhostClient } from '../../src/services/toolhost';
import { toolName } from '../args';
import { table, withWarnings } from '../format';
import { command, toolCommand } from './context';

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
  .regex(
    ENVVAR_NAME,
    'must be upper-case letters, digits and _, at least 4 long, starting with a letter and not ending with _ (e.g. API_TOKEN)',
  )
  .describe('opt-name-envvars-show');

const PRIVATE_HINT = 'Send the command to Deckhand in a direct message instead. Nothing was changed.';

/**
 * `/envvars list <tool>`: names with masked values. Listing, showing and setting register the values
 * that are secrets by the envvar rule (`envvarIsSecret`: a secret name such as `*_TOKEN`, or a
 * credential shape), so they are masked in the logs shown on this tool's cards; `running` under
 * `APP_STATE` is not, and changes nothing anywhere.
 */
export const envvarsListCommand = toolCommand({
  name: 'envvars list',
  permission: 'read',
  async run({ args, services, client }) {
    const envvars = await client.envvars.list();
    if (envvars.length === 0) return { text: `${args.tool} has no environment variables.`, status: 'info' };
    for (const envvar of envvars)
      await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    const rows = envvars.map((e) => [e.name, maskSecret(e.value)]);
    return {
      title: `Environment variables of ${args.tool}`,
      code: { text: table([['NAME', 'VALUE'], ...rows]) },
      status: 'info',
      footer: 'Values are masked; /envvars show <tool> <NAME> in a direct message shows one.',
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
  async run({ args, services, invocation }) {
    if (!invocation.isPrivate) {
      throw new UsageError(
        'Environment variable values are only shown in a private conversation with Deckhand.',
        { hint: PRIVATE_HINT },
      );
    }
    const client = services.toolhost.forTool(args.tool);
    const envvar = await client.envvars.show(args.name);
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    return withWarnings(
      {
        title: `${envvar.name} of ${args.tool}`,
        fields: [{ label: 'Value', value: envvar.value }],
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
  async run({ args, services, invocation, openForm, interrupted }) {
    if (args.value !== undefined && !invocation.isPrivate) {
      throw new UsageError(
        'Values are secrets, so /envvars set with a value only works in a private conversation.',
        {
          hint: 'The value you typed may be visible here: if it is a real secret, treat it as leaked and rotate it. Nothing was changed.',
        },
      );
    }
    if (args.value === undefined) {
      const opened = await openForm({
        ...formTarget(envvarsSetCommand, { tool: args.tool, name: args.name }),
        title: `Set ${args.name} of ${args.tool}`,
        intro: 'The value is sent to the platform and never shown in the channel.',
        fields: [{ name: 'value', label: `Value of ${args.name}`, secret: true, multiline: false }],
        submitLabel: 'Save',
      });
      if (opened)
        return {
          text: `Opened a form to set ${args.name} of ${args.tool}.`,
          status: 'info',
          visibility: 'private',
        };
      throw new UsageError(
        `Give the value: /envvars set ${args.tool} ${args.name} <value>, in a direct message with Deckhand.`,
      );
    }
    const client = services.toolhost.forTool(args.tool);
    const done = interrupted && (await currentValue(client, args.name)) === args.value;
    const envvar = done
      ? { name: args.name, value: args.value }
      : await client.envvars.set(args.name, args.value);
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, args.value);
    return withWarnings(
      {
        text: `Set ${envvar.name} of ${args.tool} (value ${maskSecret(envvar.value)}). Restart the jobs that use it to apply it.`,
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
  confirm: (args) =>
    `Delete ${args.name} of ${args.tool}? Jobs that use it will not see it after their next restart.`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const envvar = await mustExist(
      () => client.envvars.show(args.name),
      `Environment variable ${args.name} of ${args.tool} does not exist.`,
      `See /envvars list ${args.tool}.`,
    );
    await services.accounts.secrets.registerEnvvar(args.tool, envvar.name, envvar.value);
    // No version: the value is a secret and is not kept with the button; the name is the target.
    return { label: `Environment variable ${args.name} of ${args.tool}`, args };
  },
  async run({ args, client }) {
    const envvar = await client.envvars.delete(args.name);
    return { text: `Deleted ${envvar.name} of ${args.tool}.`, status: 'success' };
  },
});

/** `/envvars quota <tool>`. */
export const envvarsQuotaCommand = toolCommand({
  name: 'envvars quota',
  permission: 'read',
  async run({ args, client }) {
    const quota = await client.envvars.quotas();
    return {
      title: `Envvars quota of ${args.tool}`,
      fields: [
        { label: 'Used', value: String(quota.used ?? 'unknown'), inline: true },
        { label: 'Quota', value: String(quota.quota ?? 'unknown'), inline: true },
        { label: 'Available', value: String(quota.available ?? 'unknown'), inline: true },
      ],
      status: 'info',
    };
  },
});
