/**
 * `/source commit`: one commit of a source-host repository — its first line, author, date and link —
 * read with the user's linked account (or anonymously), and the commit addresses a posted message
 * holds (link unfurls).
 */
import { z } from 'zod';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import type { LinkRecogniser } from '../../src/core/unfurls';
import { command } from './context';

const NAME = '[A-Za-z0-9_.-]{1,100}';
/** `https://<host>/<owner>/<repo>/commit/<sha>`, the address a source host shows a commit at. */
const COMMIT_URL = new RegExp(
  `\\b(https?://[\\w.-]+(?::\\d+)?)/(${NAME})/(${NAME})/commit/([0-9a-f]{7,40})(?![\\w-])`,
  'gi',
);
const SHORT_FORM = new RegExp(`^(${NAME})/(${NAME})@([0-9a-f]{7,40})$`, 'i');

const commitRef = z
  .string()
  .refine((value) => SHORT_FORM.test(value) || new RegExp(COMMIT_URL.source, 'i').test(value), {
    message: "must be a commit's address (https://…/owner/repo/commit/SHA) or owner/repo@SHA",
  })
  .describe('the commit: its address, or owner/repo@SHA');

/** The parts of a commit reference; `origin` only for an address. */
function parse(value: string): { origin?: string; owner: string; repo: string; sha: string } {
  const short = SHORT_FORM.exec(value);
  if (short) return { owner: short[1] as string, repo: short[2] as string, sha: short[3] as string };
  const url = new RegExp(COMMIT_URL.source, 'i').exec(value) as RegExpExecArray;
  return {
    origin: (url[1] as string).toLowerCase(),
    owner: url[2] as string,
    repo: url[3] as string,
    sha: url[4] as string,
  };
}

/** `/source commit <address|owner/repo@SHA>`. */
export const sourceCommitCommand = command({
  name: 'source commit',
  summary: "Show a source-host commit's message, author and link",
  args: z.object({ commit: commitRef }),
  positional: ['commit'],
  examples: [
    '/source commit mytool-dev/mytool@3f2a9c1',
    '/source commit https://github.com/o/r/commit/3f2a9c1',
  ],
  permission: 'read',
  sideEffect: false,
  async run({ args, services, invocation }) {
    const { origin, owner, repo, sha } = parse(args.commit);
    const sourcehost = services.accounts.sourcehost;
    const home = new URL(sourcehost.webUrl).origin.toLowerCase();
    if (origin !== undefined && origin !== home) {
      throw new UsageError(`That commit is not on ${home}, the source host Deckhand is connected to.`);
    }
    const linked = await services.accounts.credentials.source(invocation.user);
    const client = linked ? sourcehost.forToken(linked.token) : sourcehost.anonymous();
    const found = await client.commits.get(owner, repo, sha).catch((error: unknown) => {
      if (error instanceof UpstreamError && (error.status === 404 || error.status === 422)) {
        throw new NotFoundError(
          `No commit ${sha} in ${owner}/${repo} that ${linked ? 'your account' : 'Deckhand'} can see.`,
          linked ? undefined : 'For a private repository, link your account: /link source.',
        );
      }
      throw error;
    });
    const [subject = '', ...body] = found.commit.message.split('\n');
    const author = found.author?.login ?? found.commit.author?.name ?? 'unknown';
    const date = found.commit.author?.date ? Date.parse(found.commit.author.date) : Number.NaN;
    return {
      title: `${owner}/${repo}@${found.sha.slice(0, 7)}: ${subject}`,
      text: body.join('\n').trim() || undefined,
      status: 'info',
      fields: [
        { label: 'Author', value: author, inline: true },
        ...(Number.isNaN(date) ? [] : [{ label: 'Date', value: '', time: { at: date }, inline: true }]),
      ],
      links: found.html_url ? [{ label: 'Open the commit', url: found.html_url }] : [],
    };
  },
});

/** Commit addresses (`https://<host>/<owner>/<repo>/commit/<sha>`) in a message. */
export const sourcehostLinks: LinkRecogniser = (text) =>
  [...text.matchAll(COMMIT_URL)].map((match) => ({
    text: match[0],
    subject: `commit:${(match[2] as string).toLowerCase()}/${(match[3] as string).toLowerCase()}@${(match[4] as string).slice(0, 7).toLowerCase()}`,
    line: `/source commit ${match[0]}`,
  }));
