/**
 * Where the jobs of `/jobs load` come from: an attached file, or with `--from-repo` the jobs file
 * of the tool's source repository (the repository its components configuration builds from, else
 * its latest build's), read through the source host's contents API, at the ref it builds from unless `--ref` says otherwise. The file's default
 * path is `jobs.yaml` at the repository's root, the name Toolforge's documentation and maintainers'
 * deploy scripts give it (`toolforge jobs load jobs.yaml`). It is read with the user's linked
 * source-host account when there is one (private repositories), anonymously otherwise. Every problem
 * is a {@link UsageError} that names the repository, path and ref.
 */
import type { Invocation } from '../../src/core/command';
import { UpstreamError, UsageError } from '../../src/core/errors';
import type { IncomingFile } from '../../src/core/files';
import { PLAIN_WORDS, type PlatformWords } from '../../src/core/platform-words';
import { type ContentFile, fileBytes, type SourcehostClient } from '../../src/services/sourcehost';
import type { NewJob } from '../../src/services/toolhost';
import { attachedText, MAX_TEXT_BYTES, parseYamlText } from '../attached-text';
import type { ToolhostServices } from './context';
import { jobsFromFile } from './jobs-file';

/** The path `--from-repo` reads when `--path` is not given. */
export const DEFAULT_JOBS_PATH = 'jobs.yaml';

/** A jobs file read from a repository. */
export interface RepoJobsFile {
  text: string;
  /** How messages name it: `jobs.yaml of toolforge-repos/mytool at main`. */
  name: string;
}

const ATTACH_INSTEAD = 'Attach the jobs file to /jobs load instead (terminal: --file PATH).';

/** A path inside the repository (`/` separated, no `..`), without leading or trailing slashes. */
export function repoPath(path: string | undefined): string {
  const clean = (path ?? DEFAULT_JOBS_PATH).trim().replace(/^\/+|\/+$/g, '');
  const parts = clean.split('/');
  if (!clean || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new UsageError(`--path ${path} is not a file path inside the repository (e.g. deploy/jobs.yaml).`);
  }
  return clean;
}

async function clientFor(services: ToolhostServices, invocation: Invocation): Promise<SourcehostClient> {
  const linked = await services.accounts.credentials.source(invocation.user).catch(() => undefined);
  const sourcehost = services.accounts.sourcehost;
  return linked ? sourcehost.forToken(linked.token) : sourcehost.anonymous();
}

/** Says why a 404 happened: the repository is not visible, the ref or the file does not exist. */
async function notFound(
  client: SourcehostClient,
  error: UpstreamError,
  where: { full: string; owner: string; name: string; path: string; at: string; ref?: string },
): Promise<UsageError> {
  if (/no commit found/i.test(error.message)) {
    return new UsageError(`${where.full} has no branch, tag or commit ${where.ref}.`, {
      hint: 'Give another one with --ref.',
    });
  }
  if (/repository is empty/i.test(error.message)) {
    return new UsageError(`${where.full} is empty: there is no ${where.path} to load.`);
  }
  const visible = await client.account.repository(where.owner, where.name).then(
    () => true,
    () => false,
  );
  if (!visible) {
    return new UsageError(`Deckhand cannot see the repository ${where.full} on the source host.`, {
      hint: 'If it is private, link an account that can read it (/link source) and try again.',
    });
  }
  return new UsageError(`There is no ${where.path} in ${where.full} at ${where.at}.`, {
    hint: "Give the jobs file's path with --path (and the branch with --ref), or attach the file instead.",
  });
}

/** The text of a file the contents API sent; refused when it is too large or not text. */
function fileText(file: ContentFile, name: string): string {
  const bytes = fileBytes(file);
  if (file.size > MAX_TEXT_BYTES || !bytes || bytes.length > MAX_TEXT_BYTES) {
    throw new UsageError(
      `${name} is ${Math.ceil(file.size / 1024)} KiB, over ${MAX_TEXT_BYTES / 1024} KiB: that is not a jobs file.`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${name} is not a text file (it is not valid UTF-8).`);
  }
}

/** Reads the jobs file of `tool` from its source repository. */
export async function repoJobsFile(
  services: ToolhostServices,
  invocation: Invocation,
  options: { tool: string; path?: string | undefined; ref?: string | undefined },
): Promise<RepoJobsFile> {
  const path = repoPath(options.path);
  const source = await services.accounts.toolSource(options.tool);
  if (!source) {
    throw new UsageError(
      `Deckhand does not know the source repository of ${options.tool}: it has no components configuration with a build repository, and no build.`,
      { hint: ATTACH_INSTEAD },
    );
  }
  if (!source.repo) {
    throw new UsageError(
      `The source of ${options.tool} is ${source.url}, which is not on the source host (${new URL(services.accounts.sourcehost.webUrl).host}), so Deckhand cannot read ${path} from it.`,
      { hint: ATTACH_INSTEAD },
    );
  }
  const { owner, name } = source.repo;
  const full = `${owner}/${name}`;
  const ref = options.ref ?? source.ref;
  const at = ref ?? 'its default branch';
  const label = `${path} of ${full} at ${at}`;
  const client = await clientFor(services, invocation);
  let content: Awaited<ReturnType<SourcehostClient['contents']['get']>>;
  try {
    content = await client.contents.get(owner, name, path, ref);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) {
      throw await notFound(client, error, { full, owner, name, path, at, ...(ref ? { ref } : {}) });
    }
    throw error;
  }
  if (content.kind === 'dir') {
    const yaml = content.entries.filter((e) => e.type === 'file' && /\.ya?ml$/i.test(e.name));
    throw new UsageError(`${path} in ${full} at ${at} is a directory, not a file.`, {
      hint: yaml.length
        ? `Give a file with --path, e.g. --path ${yaml[0]?.path} (YAML files there: ${yaml.map((e) => e.name).join(', ')}).`
        : 'Give the path of the jobs file with --path, e.g. --path deploy/jobs.yaml.',
    });
  }
  if (content.kind === 'other') {
    throw new UsageError(`${path} in ${full} at ${at} is a ${content.type}, not a file.`);
  }
  return { text: fileText(content.file, label), name: label };
}

/** The arguments of `/jobs load` that say where its jobs come from. */
export interface JobsSourceArgs {
  tool: string;
  fromRepo?: boolean | undefined;
  path?: string | undefined;
  ref?: string | undefined;
  /** The checked jobs as JSON, stored with the Confirm button. */
  content?: string | undefined;
}

/**
 * The jobs `/jobs load` applies and where they come from: the stored `content` first (what was
 * confirmed), else the repository's file (`repo`, with `--from-repo`), else the attached file.
 */
export async function jobsToLoad(
  args: JobsSourceArgs,
  files: readonly IncomingFile[] | undefined,
  repo?: () => Promise<RepoJobsFile>,
  here: PlatformWords = PLAIN_WORDS,
): Promise<{ jobs: NewJob[]; from?: string }> {
  if (args.content !== undefined) {
    try {
      return { jobs: jobsFromFile(JSON.parse(args.content), 'The jobs given') };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError('The jobs given are not valid JSON.');
    }
  }
  if (args.fromRepo) {
    if (files?.length) throw new UsageError('Attach a jobs file or use --from-repo, not both.');
    if (!repo) throw new UsageError('--from-repo needs the source repository, which is not available here.');
    const file = await repo();
    return { jobs: jobsFromFile(parseYamlText(file.text, file.name), file.name), from: file.name };
  }
  if (args.path !== undefined || args.ref !== undefined) {
    throw new UsageError(`--${args.path !== undefined ? 'path' : 'ref'} goes with --from-repo.`, {
      hint: `/jobs load ${args.tool} --from-repo --path deploy/jobs.yaml --ref main`,
    });
  }
  const text = await attachedText(
    files,
    'a jobs file (YAML, as /jobs dump writes it)',
    here.attachHint('jobs load'),
  );
  const name = files?.[0]?.name ?? 'The file';
  return { jobs: jobsFromFile(parseYamlText(text, name), name) };
}
