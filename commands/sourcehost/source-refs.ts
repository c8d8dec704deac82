/**
 * `/source commit` and `/source pr`: one commit or pull request of a source-host repository, read
 * with the person's linked account (or anonymously), and the commit and pull request addresses a
 * posted message holds (link unfurls).
 */
import { z } from 'zod';
import type { LinkRecogniser } from '../../src/core/unfurls';
import { command } from './context';
import { type AddressKind, addressArgument, addressLinks, parseAddress, readAsAsker } from './source-address';

const COMMIT: AddressKind = {
  path: 'commit',
  id: '[0-9a-f]{7,40}',
  short: '@',
  described: "a commit's address (https://…/owner/repo/commit/SHA) or owner/repo@SHA",
  descriptionKey: 'opt-commit',
};
const PULL: AddressKind = {
  path: 'pull',
  id: '\\d{1,9}',
  short: '#',
  described: "a pull request's address (https://…/owner/repo/pull/12) or owner/repo#12",
  descriptionKey: 'opt-pr',
};

/** `/source commit <address|owner/repo@SHA>`. */
export const sourceCommitCommand = command({
  name: 'source commit',
  args: z.object({ commit: addressArgument(COMMIT) }),
  positional: ['commit'],
  examples: [
    '/source commit toolforge-repos/mytool@3f2a9c1',
    '/source commit https://github.com/o/r/commit/3f2a9c1',
  ],
  permission: 'read',
  async run({ args, services, invocation }) {
    const address = parseAddress(COMMIT, args.commit);
    const { owner, repo, id } = address;
    const found = await readAsAsker(services, invocation, address, `commit ${id}`, (client) =>
      client.commits.get(owner, repo, id),
    );
    const [subject = '', ...body] = found.commit.message.split('\n');
    const date = Date.parse(found.commit.author?.date ?? '');
    return {
      title: `${owner}/${repo}@${found.sha.slice(0, 7)}: ${subject}`,
      text: body.join('\n').trim() || undefined,
      status: 'info',
      fields: [
        {
          label: 'Author',
          value: found.author?.login ?? found.commit.author?.name ?? 'unknown',
          inline: true,
        },
        ...(Number.isNaN(date) ? [] : [{ label: 'Date', value: '', time: { at: date }, inline: true }]),
      ],
      links: found.html_url ? [{ label: 'Open the commit', url: found.html_url }] : [],
    };
  },
});

/** `/source pr <address|owner/repo#12>`. */
export const sourcePullCommand = command({
  name: 'source pr',
  args: z.object({ pr: addressArgument(PULL) }),
  positional: ['pr'],
  examples: ['/source pr toolforge-repos/mytool#12', '/source pr https://github.com/o/r/pull/12'],
  permission: 'read',
  async run({ args, services, invocation }) {
    const address = parseAddress(PULL, args.pr);
    const { owner, repo, id } = address;
    const pull = await readAsAsker(services, invocation, address, `pull request #${id}`, (client) =>
      client.pulls.get(owner, repo, Number(id)),
    );
    const state = pull.merged ? 'merged' : pull.state === 'open' && pull.draft ? 'draft' : pull.state;
    return {
      title: `${owner}/${repo}#${pull.number}: ${pull.title}`,
      status: pull.merged ? 'success' : 'info',
      fields: [
        { label: 'State', value: state, inline: true },
        { label: 'Author', value: pull.user?.login ?? 'unknown', inline: true },
        { label: 'Branches', value: `${pull.head.ref} → ${pull.base.ref}`, inline: true },
      ],
      links: pull.html_url ? [{ label: 'Open the pull request', url: pull.html_url }] : [],
    };
  },
});

/** Commit and pull request addresses in a message. */
export const sourcehostLinks: LinkRecogniser = (text) => [
  ...addressLinks(COMMIT, 'source commit', (a) =>
    `commit:${a.owner}/${a.repo}@${a.id.slice(0, 7)}`.toLowerCase(),
  )(text),
  ...addressLinks(PULL, 'source pr', (a) => `pull:${a.owner}/${a.repo}#${a.id}`.toLowerCase())(text),
];
