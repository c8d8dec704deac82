/**
 * `/config set <tool>` (save a components configuration from an attached `toolforge.yaml` or JSON,
 * or from the `/config generate` card's Save button) and `/config dump <tool>` (the stored one as a
 * file, the same format `/config set` reads).
 */

import { z } from 'zod';
import { actionTo } from '../../src/core/action-ref';
import { NotFoundError, UsageError } from '../../src/core/errors';
import type { FilesDeclaration } from '../../src/core/files';
import { PLAIN_WORDS, type PlatformWords } from '../../src/core/platform-words';
import { fingerprint, mustExist } from '../../src/core/target';
import { checkToolConfig, type ToolConfig } from '../../src/services/toolhost';
import { toolName } from '../args';
import { attachedText, parseYamlText } from '../attached-text';
import { diffLines, fieldChanges } from '../data-diff';
import { withWarnings } from '../format';
import { stringify } from '../yaml';
import { command, toolCommand } from './context';
import { deployCommand } from './deploy';

const setArgs = z.object({
  tool: toolName,
  /**
   * The checked configuration as JSON: set by the Save button of `/config generate`, and by the
   * confirmation step from the attached file (the Confirm click carries no file).
   */
  content: z.string().min(2).max(200_000).optional().meta({ hidden: true }),
});

/** The configuration named by the arguments or the attached file, checked; problems are usage errors. */
async function wantedConfig(
  args: z.infer<typeof setArgs>,
  files: Parameters<typeof attachedText>[0],
  here: PlatformWords = PLAIN_WORDS,
): Promise<{ config: ToolConfig; unknownFields: string[] }> {
  let value: unknown;
  let name = 'The configuration';
  if (args.content !== undefined) {
    try {
      value = JSON.parse(args.content);
    } catch {
      throw new UsageError('The configuration given is not valid JSON.');
    }
  } else {
    const text = await attachedText(
      files,
      'a toolforge.yaml (or JSON) file to save',
      here.attachHint('config set'),
    );
    name = files?.[0]?.name ?? name;
    value = parseYamlText(text, name);
  }
  const check = checkToolConfig(value);
  if (!check.ok) {
    const list = check.problems.slice(0, 10).map((p) => `• ${p}`);
    const more = check.problems.length > 10 ? [`… and ${check.problems.length - 10} more`] : [];
    throw new UsageError(
      `${name} is not a valid components configuration, so nothing was saved:\n${[...list, ...more].join('\n')}`,
      {
        hint: 'The format is described at https://wikitech.wikimedia.org/wiki/Help:Toolforge/Deploy_your_tool',
      },
    );
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
    confirm: (args, target) =>
      `Save this components configuration for ${args.tool}? ${target?.preview ? 'The changes are below.' : ''}`.trim(),
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
        throw new UsageError(
          `The components configuration of ${args.tool} is already exactly this: nothing to save.`,
        );
      }
      const lines = [
        ...(current
          ? diffLines(changes)
          : [`# ${args.tool} has no configuration yet: all of it is new.`, stringify(config).trimEnd()]),
        ...unknownFields.map((field) => `# unknown field ${field}: the platform skips it`),
      ];
      return {
        label: `The components configuration of ${args.tool}`,
        args: { ...args, content: JSON.stringify(config) },
        version: fingerprint(current ?? null),
        preview: { text: lines.join('\n'), language: current ? 'diff' : 'yaml' },
      };
    },
    async run({ args, services }) {
      const client = services.toolhost.forTool(args.tool);
      const saved = await client.components.setConfig(JSON.parse(args.content ?? '{}') as ToolConfig);
      const names = Object.keys(saved.components);
      return withWarnings(
        {
          title: `Configuration of ${args.tool} saved`,
          text: `Saved ${names.length} component${names.length === 1 ? '' : 's'} (${names.join(', ')}). Deploy to apply it.`,
          status: 'success',
          actions: [actionTo(deployCommand, { tool: args.tool }, { label: 'Deploy', style: 'primary' })],
        },
        client,
      );
    },
  }),
  {
    files: {
      description: 'the toolforge.yaml (or JSON) to save',
      required: false,
    } satisfies FilesDeclaration,
  },
);

/** `/config dump <tool>`: the stored configuration as a `toolforge.yaml` file. */
export const configDumpCommand = toolCommand({
  name: 'config dump',
  permission: 'read',
  async run({ args, client }) {
    const config = await mustExist(
      () => client.components.getConfig(),
      `${args.tool} has no components configuration to dump.`,
      `Save one with /config set ${args.tool}.`,
    );
    return {
      title: `Configuration of ${args.tool}`,
      text: 'The stored configuration, as a file /config set reads back.',
      status: 'info',
      attachments: [{ filename: `${args.tool}-toolforge.yaml`, content: stringify(config) }],
    };
  },
});
