/**
 * `/config set <tool>` (save a components configuration from an attached `toolforge.yaml` or JSON,
 * or from the `/config generate` card's Save button) and `/config dump <tool>` (the stored one as a
 * file, the same format `/config set` reads).
 */

import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { NotFoundError, UsageError } from '../../src/core/errors';
import type { FilesDeclaration } from '../../src/core/files';
import { translators } from '../../src/core/languages';
import { PLAIN_WORDS, type PlatformWords } from '../../src/core/platform-words';
import { fingerprint, mustExist } from '../../src/core/target';
import { t, translator } from '../../src/i18n/translate';
import { checkToolConfig, type ToolConfig } from '../../src/services/toolhost';
import { toolName } from '../args';
import { attachedText, parseYamlText } from '../attached-text';
import { diffLines, fieldChanges } from '../data-diff';
import { withWarnings } from '../format';
import { stringify } from '../yaml';
import { command, toolCommand } from './context';
import { deployCommand } from './deploy';

const ENGLISH = translator('en');

const setArgs = z.object({
  tool: toolName,
  /**
   * The checked configuration as JSON: set by the Save button of `/config generate`, and by the
   * confirmation step from the attached file (the Confirm click carries no file).
   */
  content: z.string().min(2).max(200_000).optional().meta({ hidden: true }),
});

/** Where the components configuration's format is described. */
const CONFIG_FORMAT_URL = 'https://wikitech.wikimedia.org/wiki/Help:Toolforge/Deploy_your_tool';

/** The configuration named by the arguments or the attached file, checked; problems are usage errors. */
async function wantedConfig(
  args: z.infer<typeof setArgs>,
  files: Parameters<typeof attachedText>[0],
  here: PlatformWords = PLAIN_WORDS,
): Promise<{ config: ToolConfig; unknownFields: string[] }> {
  let value: unknown;
  let name: string | undefined;
  if (args.content !== undefined) {
    try {
      value = JSON.parse(args.content);
    } catch {
      throw UsageError.inWords((say) => ({ message: say.t('config-given-not-json') }));
    }
  } else {
    const text = await attachedText(files, 'attached-what-config', (say) =>
      here.attachHint('config set', say),
    );
    name = files?.[0]?.name;
    value = parseYamlText(text, name ?? t('en', 'config-given'));
  }
  const check = checkToolConfig(value);
  if (!check.ok) {
    const problems = check.problems;
    const list = problems.slice(0, 10).map((p) => `• ${p}`);
    throw UsageError.inWords((say) => {
      const more = problems.length > 10 ? [say.t('config-invalid-more', problems.length - 10)] : [];
      return {
        message: say.t('config-invalid', name ?? say.t('config-given'), [...list, ...more].join('\n')),
        hint: say.t('config-invalid-hint', CONFIG_FORMAT_URL),
      };
    });
  }
  return { config: check.config, unknownFields: check.unknownFields };
}

/** `/config set <tool>` with a file attached (terminal: `--file PATH`), confirmed with a diff. */
export const configSetCommand = Object.assign(
  command({
    name: 'config set',
    args: setArgs,
    examples: [
      '/config set mytool   (with toolforge.yaml attached)',
      '/config set mytool --file ./toolforge.yaml',
    ],
    permission: 'write',
    guarded: true,
    overridable: true,
    confirm: (args, target, say = ENGLISH) =>
      target?.preview ? say.t('config-set-confirm-below', args.tool) : say.t('config-set-confirm', args.tool),
    async resolve({ args, invocation, services, here }) {
      const { config, unknownFields } = await wantedConfig(args, invocation.files, here);
      const client = services.toolhost.forTool(args.tool);
      let current: ToolConfig | undefined;
      try {
        current = await client.components.getConfig();
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      const changes = fieldChanges(current ?? {}, config);
      if (current && changes.length === 0) {
        throw UsageError.inWords((say) => ({ message: say.t('config-set-unchanged', args.tool) }));
      }
      const { say } = translators(invocation);
      const lines = [
        ...(current
          ? diffLines(changes)
          : [`# ${say.t('config-set-all-new', args.tool)}`, stringify(config).trimEnd()]),
        ...unknownFields.map((field) => `# ${say.t('config-set-unknown-field', field)}`),
      ];
      return {
        label: t('en', 'config-label', args.tool),
        args: { ...args, content: JSON.stringify(config) },
        version: fingerprint(current ?? null),
        preview: { text: lines.join('\n'), language: current ? 'diff' : 'yaml' },
      };
    },
    async run({ args, services, say = ENGLISH }) {
      const client = services.toolhost.forTool(args.tool);
      const saved = await client.components.setConfig(JSON.parse(args.content ?? '{}') as ToolConfig);
      const names = Object.keys(saved.components);
      return withWarnings(
        {
          title: say.t('config-saved-title', args.tool),
          text: say.t('config-saved-text', names.length, names.join(', ')),
          status: 'success',
          actions: [
            actionTo(
              deployCommand,
              { tool: args.tool },
              { label: say.t('config-button-deploy'), style: 'primary' },
            ),
          ],
        },
        client,
      );
    },
  }),
  {
    files: {
      description: 'file-config-set',
      required: false,
    } satisfies FilesDeclaration,
  },
);

/** `/config dump <tool>`: the stored configuration as a `toolforge.yaml` file. */
export const configDumpCommand = toolCommand({
  name: 'config dump',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const config = await mustExist(
      () => client.components.getConfig(),
      (said) => ({
        message: said.t('config-dump-none', args.tool),
        hint: said.t('config-dump-none-hint', args.tool),
      }),
    );
    return {
      title: say.t('config-title', args.tool),
      text: say.t('config-dump-text'),
      status: 'info',
      attachments: [{ filename: `${args.tool}-toolforge.yaml`, content: stringify(config) }],
    };
  },
});
