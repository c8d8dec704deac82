/**
 * Pull requests: `GET /repos/{owner}/{repo}/pulls/{pull_number}` (`pulls/get`,
 * https://docs.github.com/rest/pulls/pulls#get-a-pull-request); a pull request or repository the
 * account cannot see is 404.
 */
import { z } from 'zod';
import { enc } from './account';
import type { SourcehostAuth, SourcehostTransport } from './transport';

/** `pull-request` (the fields Deckhand reads). */
export const PullRequestSchema = z.looseObject({
  number: z.number(),
  state: z.string(),
  title: z.string(),
  body: z.string().nullish(),
  draft: z.boolean().nullish(),
  merged: z.boolean().nullish(),
  user: z.looseObject({ login: z.string() }).nullish(),
  head: z.looseObject({ ref: z.string() }),
  base: z.looseObject({ ref: z.string() }),
  html_url: z.string().nullish(),
  created_at: z.string().nullish(),
});
/** One pull request. */
export type PullRequest = z.output<typeof PullRequestSchema>;

/** Pull requests of repositories. */
export class PullsApi {
  constructor(
    private readonly transport: SourcehostTransport,
    private readonly auth: SourcehostAuth,
  ) {}

  /** Pull request `number` of `owner/repo` (an `UpstreamError` with status 404 when not visible). */
  get(owner: string, repo: string, number: number): Promise<PullRequest> {
    return this.transport.json(
      'GET',
      `/repos/${enc(owner)}/${enc(repo)}/pulls/${number}`,
      PullRequestSchema,
      {
        auth: this.auth,
        route: '/repos/{owner}/{repo}/pulls/{pull_number}',
      },
    );
  }
}
