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
import { type Translator, t, translator } from '../../src/i18n/translate';
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
  /** How messages name it: `jobs.yaml of toolforge-repos/mytool at main` (English). */
  name: string;
  /** How messages name it in the reader's language. */
  nameIn?: (say: Translator) => string;
}

/** A refusal said in the reader's words. */
const refused = (message: (say: Translator) => string, hint?: (say: Translator) => string) =>
  UsageError.inWords((say) => ({ message: message(say), ...(hint ? { hint: hint(say) } : {}) }));

const ENGLISH = translator('en');

const attachInstead = (say: Translator) => say.t('jobs-repo-attach-instead');

/** A path inside the repository (`/` separated, no `..`), without leading or trailing slashes. */
export function repoPath(path: string | undefined): string {
  const clean = (path ?? DEFAULT_JOBS_PATH).trim().replace(/^\/+|\/+$/g, '');
  const parts = clean.split('/');
  if (!clean || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw refused((say) => say.t('jobs-repo-bad-path', String(path)));
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
  where: {
    full: string;
    owner: string;
    name: string;
    path: string;
    at: (say: Translator) => string;
    ref?: string;
  },
): Promise<UsageError> {
  if (/no commit found/i.test(error.message)) {
    return refused(
      (say) => say.t('jobs-repo-no-ref', where.full, String(where.ref)),
      (say) => say.t('jobs-repo-no-ref-hint'),
    );
  }
  if (/repository is empty/i.test(error.message)) {
    return refused((say) => say.t('jobs-repo-empty', where.full, where.path));
  }
  const visible = await client.account.repository(where.owner, where.name).then(
    () => true,
    () => false,
  );
  if (!visible) {
    return refused(
      (say) => say.t('jobs-repo-not-visible', where.full),
      (say) => say.t('jobs-repo-not-visible-hint'),
    );
  }
  return refused(
    (say) => say.t('jobs-repo-no-file', where.path, where.full, where.at(say)),
    (say) => say.t('jobs-repo-no-file-hint'),
  );
}

/** The text of a file the contents API sent; refused when it is too large or not text. */
function fileText(file: ContentFile, name: (say: Translator) => string): string {
  const bytes = fileBytes(file);
  if (file.size > MAX_TEXT_BYTES || !bytes || bytes.length > MAX_TEXT_BYTES) {
    throw refused((say) =>
      say.t('jobs-repo-too-big', name(say), Math.ceil(file.size / 1024), MAX_TEXT_BYTES / 1024),
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refused((say) => say.t('jobs-repo-not-text', name(say)));
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
    throw refused((say) => say.t('jobs-repo-unknown-source', options.tool), attachInstead);
  }
  if (!source.repo) {
    const url = source.url;
    const host = new URL(services.accounts.sourcehost.webUrl).host;
    throw refused((say) => say.t('jobs-repo-not-on-host', options.tool, url, host, path), attachInstead);
  }
  const { owner, name } = source.repo;
  const full = `${owner}/${name}`;
  const ref = options.ref ?? source.ref;
  const at = (say: Translator) => ref ?? say.t('jobs-repo-default-branch');
  const labelIn = (say: Translator) => say.t('jobs-repo-file', path, full, at(say));
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
    throw refused(
      (say) => say.t('jobs-repo-directory', path, full, at(say)),
      (say) =>
        yaml.length
          ? say.t('jobs-repo-directory-hint-yaml', String(yaml[0]?.path), yaml.map((e) => e.name).join(', '))
          : say.t('jobs-repo-directory-hint'),
    );
  }
  if (content.kind === 'other') {
    const type = content.type;
    throw refused((say) => say.t('jobs-repo-other', path, full, at(say), type));
  }
  return {
    text: fileText(content.file, labelIn),
    name: t('en', 'jobs-repo-file', path, full, at(ENGLISH)),
    nameIn: labelIn,
  };
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
): Promise<{ jobs: NewJob[]; from?: (say: Translator) => string }> {
  if (args.content !== undefined) {
    try {
      return { jobs: jobsFromFile(JSON.parse(args.content), (say) => say.t('jobs-given')) };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw refused((say) => say.t('jobs-given-not-json'));
    }
  }
  if (args.fromRepo) {
    if (files?.length) throw refused((say) => say.t('jobs-repo-attach-or-repo'));
    if (!repo) throw refused((say) => say.t('jobs-repo-unavailable'));
    const file = await repo();
    return {
      jobs: jobsFromFile(parseYamlText(file.text, file.name), file.nameIn ?? file.name),
      from: file.nameIn ?? (() => file.name),
    };
  }
  if (args.path !== undefined || args.ref !== undefined) {
    const option = args.path !== undefined ? 'path' : 'ref';
    throw refused(
      (say) => say.t('jobs-repo-option-needs-repo', option),
      () => `/jobs load ${args.tool} --from-repo --path deploy/jobs.yaml --ref main`,
    );
  }
  const text = await attachedText(files, 'attached-what-jobs', (say) => here.attachHint('jobs load', say));
  const attached = files?.[0]?.name;
  const name = attached ?? t('en', 'jobs-attached-file');
  return {
    jobs: jobsFromFile(parseYamlText(text, name), attached ?? ((say) => say.t('jobs-attached-file'))),
  };
}
