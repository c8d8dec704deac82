import { actionTo } from '../../src/core/action-ref';
import { fingerprint, mustExist } from '../../src/core/target';
import { t, translator } from '../../src/i18n/translate';
import { stringify } from '../yaml';
import { configSetCommand } from './config-set';
import { toolCommand } from './context';

const ENGLISH = translator('en');

/** `/config show <tool>`: the tool's components configuration as YAML. */
export const configShowCommand = toolCommand({
  name: 'config show',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const config = await client.components.getConfig();
    const names = Object.keys(config.components);
    return {
      title: say.t('config-title', args.tool),
      text: say.t('config-show-text', names.length, names.join(', ') || say.t('config-show-none')),
      code: { text: stringify(config).trimEnd(), language: 'yaml' },
      status: 'info',
    };
  },
});

/** `/config generate <tool>`: a configuration generated from the tool's existing jobs. */
export const configGenerateCommand = toolCommand({
  name: 'config generate',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const config = await client.components.generateConfig();
    return {
      title: say.t('config-generated-title', args.tool),
      text: say.t('config-generated-text'),
      code: { text: stringify(config).trimEnd(), language: 'yaml' },
      status: 'info',
      actions: [
        actionTo(
          configSetCommand,
          { tool: args.tool, content: JSON.stringify(config) },
          { label: say.t('config-button-save'), style: 'primary' },
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
  confirm: (args, _target, say = ENGLISH) => say.t('config-delete-confirm', args.tool),
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const config = await mustExist(
      () => client.components.getConfig(),
      (say) => ({ message: say.t('config-delete-none', args.tool) }),
    );
    return { label: t('en', 'config-label', args.tool), args, version: fingerprint(config) };
  },
  async run({ args, client, say = ENGLISH }) {
    await client.components.deleteConfig();
    return { text: say.t('config-deleted', args.tool), status: 'success' };
  },
});
