/**
 * Files in the terminal chat: `--file PATH` on a command line attaches a local file, as a chat
 * platform attaches an uploaded one. The flag is taken out of the line before the command is parsed,
 * and the file reaches the command as an {@link IncomingFile} that streams from disk when opened.
 */
import { createReadStream, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { IncomingFile } from '../../src/core/files';
import { type Translator, translator } from '../../src/i18n/translate';

/** `--file PATH`, `--file=PATH`, with the path bare or in single or double quotes. */
const FILE_FLAG = /(^|\s)--file(?:=|\s+)(?:"([^"]*)"|'([^']*)'|(\S+))/g;

/** A command line with its `--file` flags taken out. */
export interface FileFlags {
  /** The line without the flags. */
  text: string;
  /** The paths, in the order given. */
  paths: string[];
  /** True when `--file` was typed with no path after it. */
  missingPath: boolean;
}

/** Takes the `--file PATH` flags out of a command line (a quoted path may hold spaces). */
export function takeFileFlags(line: string): FileFlags {
  const paths: string[] = [];
  const text = line.replace(
    FILE_FLAG,
    (_match, lead: string, double?: string, single?: string, bare?: string) => {
      paths.push(double ?? single ?? bare ?? '');
      return lead;
    },
  );
  const missingPath = /(^|\s)--file(=|\s*$)/.test(text);
  return { text: text.replace(/\s+$/, ''), paths, missingPath };
}

/** Where a typed path points: `~/` is the home directory, a relative path starts at `cwd`. */
export function expandPath(path: string, cwd = process.cwd()): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/**
 * A local file as an attachment, or a sentence saying why it cannot be one (missing, a folder,
 * unreadable). Nothing is read until the command opens it.
 */
export function localFile(
  path: string,
  cwd = process.cwd(),
  say: Translator = translator('en'),
): IncomingFile | string {
  const full = expandPath(path, cwd);
  let size: number;
  try {
    const stat = statSync(full);
    if (!stat.isFile()) return say.t('shell-file-not-a-file', path);
    size = stat.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return say.t('shell-file-missing', path, full);
    if (code === 'EACCES') return say.t('shell-file-permission-denied', path);
    return say.t('shell-file-unreadable', path, code ?? say.t('shell-file-unknown-error'));
  }
  return {
    name: basename(full),
    size,
    open: async (): Promise<Readable> => createReadStream(full),
  };
}
