/**
 * One commit: `GET /repos/{owner}/{repo}/commits/{ref}` (`repos/get-commit`, by SHA, SHA prefix or
 * branch; an unknown ref is 422 "No commit found"). Comparing two commits: `GET /repos/{owner}/{repo}/compare/{basehead}` with `basehead` =
 * `BASE...HEAD` (`repos/compare-commits`,
 * https://docs.github.com/en/rest/commits/commits?apiVersion=2022-11-28#compare-two-commits). The
 * answer (`commit-comparison`) lists the commits reachable from HEAD and not from BASE, oldest
 * first (at most 250 in one answer), with `total_commits` counting them all; each commit carries
 * `sha`, `commit.message`, `commit.author.name` and `author` (the linked account, or null).
 */
import { z } from 'zod';
import { enc } from './account';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** One commit of a comparison (the fields Deckhand reads). */
export const ComparedCommitSchema = z.looseObject({
  sha: z.string(),
  html_url: z.string().nullish(),
  commit: z.looseObject({
    message: z.string(),
    author: z.looseObject({ name: z.string().nullish() }).nullish(),
  }),
  author: z.looseObject({ login: z.string() }).nullish(),
});
/** One commit of a comparison. */
export type ComparedCommit = z.output<typeof ComparedCommitSchema>;

/** `commit` (the fields Deckhand reads). */
export const CommitSchema = ComparedCommitSchema.extend({
  commit: z.looseObject({
    message: z.string(),
    author: z.looseObject({ name: z.string().nullish(), date: z.string().nullish() }).nullish(),
  }),
});
/** One commit. */
export type Commit = z.output<typeof CommitSchema>;

/** `commit-comparison` (the fields Deckhand reads). */
export const CommitComparisonSchema = z.looseObject({
  status: z.string(),
  ahead_by: z.number(),
  behind_by: z.number(),
  total_commits: z.number(),
  html_url: z.string().nullish(),
  commits: z.array(ComparedCommitSchema),
});
/** What changed between two commits. */
export type CommitComparison = z.output<typeof CommitComparisonSchema>;

/** Commits of repositories. */
export class CommitsApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {}

  /** The commit `ref` names. An unknown repository is 404, an unknown commit 422 (`UpstreamError`). */
  get(owner: string, repo: string, ref: string): Promise<Commit> {
    return this.transport.json('GET', `/repos/${enc(owner)}/${enc(repo)}/commits/${enc(ref)}`, CommitSchema, {
      auth: this.auth,
      route: '/repos/{owner}/{repo}/commits/{ref}',
    });
  }

  /**
   * The commits between `base` and `head` (branches, tags or SHAs). An unknown repository or commit
   * is an `UpstreamError` with status 404.
   */
  compare(owner: string, repo: string, base: string, head: string): Promise<CommitComparison> {
    return this.transport.json(
      'GET',
      `/repos/${enc(owner)}/${enc(repo)}/compare/${enc(base)}...${enc(head)}`,
      CommitComparisonSchema,
      { auth: this.auth, route: '/repos/{owner}/{repo}/compare/{basehead}' },
    );
  }
}
