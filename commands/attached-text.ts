/**
 * Reading a small text file the user attached to a command (a `toolforge.yaml`, a jobs file): one
 * file, at most {@link MAX_TEXT_BYTES}, UTF-8, parsed as YAML (which also reads JSON). Every problem
 * is a {@link UsageError} in plain words, raised before anything is asked or sent.
 */

import { UsageError } from '../src/core/errors';
import type { IncomingFile } from '../src/core/files';
import type { MessageKey, Translator } from '../src/i18n/translate';
import { parse } from './yaml';

/** The largest configuration or jobs file read (real ones are a few KiB). */
export const MAX_TEXT_BYTES = 256 * 1024;

/**
 * The attached file's text; `what` is the catalog message naming it ("a toolforge.yaml"), `hint` says how to
 * attach one on the reader's platform, in the refusal's language (its words: `here.attachHint(command, say)`).
 */
export async function attachedText(
  files: readonly IncomingFile[] | undefined,
  what: MessageKey,
  hint: string | ((say: Translator) => string),
): Promise<string> {
  const list = files ?? [];
  if (list.length === 0)
    throw UsageError.inWords((say) => ({
      message: say.t('attached-attach', say.t(what)),
      hint: typeof hint === 'string' ? hint : hint(say),
    }));
  if (list.length > 1) {
    const count = list.length;
    throw UsageError.inWords((say) => ({ message: say.t('attached-one-file-only', count) }));
  }
  const file = list[0] as IncomingFile;
  const tooBig = () =>
    UsageError.inWords((say) => ({
      message: say.t('attached-too-big', file.name, MAX_TEXT_BYTES / 1024, say.t(what)),
    }));
  if (file.size !== undefined && file.size > MAX_TEXT_BYTES) throw tooBig();
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = await file.open();
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    total += buffer.length;
    if (total > MAX_TEXT_BYTES) {
      stream.destroy();
      throw tooBig();
    }
    chunks.push(buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw UsageError.inWords((say) => ({ message: say.t('attached-not-text', file.name) }));
  }
}

/** Parses YAML or JSON text; a syntax error names its line. */
export function parseYamlText(text: string, name: string): unknown {
  try {
    return parse(text, { prettyErrors: true, maxAliasCount: 100 });
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw UsageError.inWords((say) => ({
      message: line
        ? say.t('attached-not-yaml-at-line', name, line, reason)
        : say.t('attached-not-yaml', name, reason),
    }));
  }
}
