import { actionTo } from '../../src/core/action-ref';
import { fingerprint, mustExist } from '../../src/core/target';
import { stringify } from '../yaml';
import { configSetCommand } from './config-set';
import { toolCommand } from './context';

/** `/config show <tool>`: the tool's components configuration as YAML. */
export const configShowCommand = toolCommand({
  name: 'config show',
  permission: 'read',
  async run({ args, client }) {
    const config = await client.components.getConfig();
    const names = Object.keys(config.components);
    return {
      title: `Configuration of ${args.tool}`,
      text: `${names.length} component${names.length === 1 ? '' : 's'}: ${names.join(', ') || 'none'}`,
      code: { text: stringify(config).trimEnd(), language: 'yaml' },
      status: 'info',
    };
  },
});

/** `/config generate <tool>`: a configuration generated from the tool's existing jobs. */
export const configGenerateCommand = toolCommand({
  name: 'config generate',
  permission: 'read',
  async run({ args, client }) {
    const config = await client.components.generateConfig();
    return {
      title: `Generated configuration for ${args.tool}`,
      text: 'Generated from the existing jobs where possible (unsupported settings are left out). Nothing was saved. Save shows what would change before saving.',
      code: { text: stringify(config).trimEnd(), language: 'yaml' },
      status: 'info',
      actions: [
        actionTo(
          configSetCommand,
          { tool: args.tool, content: JSON.stringify(config) },
          { label: 'Save', style: 'primary' },
        ),
      ],
    };
  },
});

/** `/config delete <tool>` (confirmed first). */
export const configDeleteCommand = toolCommand({
  name: 'config delete',
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args) =>
    `Delete the components configuration of ${args.tool}? /deploy will not work until a new one is set.`,
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const config = await mustExist(
      () => client.components.getConfig(),
      `${args.tool} has no components configuration, so there is nothing to delete.`,
    );
    return { label: `The components configuration of ${args.tool}`, args, version: fingerprint(config) };
  },
  async run({ args, client }) {
    await client.components.deleteConfig();
    return { text: `Deleted the components configuration of ${args.tool}.`, status: 'success' };
  },
});
