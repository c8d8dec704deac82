/**
 * `/source commit` and `/source pr`: one commit or pull request of a source-host repository, read
 * with the person's linked account (or anonymously), and the commit and pull request addresses a
 * posted message holds (link unfurls).
 */
import { z } from 'zod';
import type { LinkRecogniser } from '../../src/core/unfurls';
import { type Translator, translator } from '../../src/i18n/translate';
import { command } from './context';
import { type AddressKind, addressArgument, addressLinks, parseAddress, readAsAsker } from './source-address';

const COMMIT: AddressKind = {
  path: 'commit',
  id: '[0-9a-f]{7,40}',
  short: '@',
  descriptionKey: 'opt-commit',
  invalid: 'source-commit-invalid',
};
const PULL: AddressKind = {
  path: 'pull',
  id: '\\d{1,9}',
  short: '#',
  descriptionKey: 'opt-pr',
  invalid: 'source-pr-invalid',
};

const ENGLISH = translator('en');

/** A pull request's state in words: `merged`, `draft`, `open` or `closed` (another as the host says it). */
function pullState(state: string, say: Translator): string {
  if (state === 'merged') return say.t('source-pr-state-merged');
  if (state === 'draft') return say.t('source-pr-state-draft');
  if (state === 'open') return say.t('source-pr-state-open');
  if (state === 'closed') return say.t('source-pr-state-closed');
  return state;
}

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
  async run({ args, services, invocation, say = ENGLISH }) {
    const address = parseAddress(COMMIT, args.commit);
    const { owner, repo, id } = address;
    const missing = (say: Translator, repository: string, linked: boolean) =>
      linked
        ? say.t('source-commit-not-visible', id, repository)
        : say.t('source-commit-not-visible-anonymous', id, repository);
    const found = await readAsAsker(services, invocation, address, missing, (client) =>
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
          label: say.t('source-field-author'),
          value: found.author?.login ?? found.commit.author?.name ?? say.t('deploy-field-unknown'),
          inline: true,
        },
        ...(Number.isNaN(date)
          ? []
          : [{ label: say.t('source-field-date'), value: '', time: { at: date }, inline: true }]),
      ],
      links: found.html_url ? [{ label: say.t('source-open-commit'), url: found.html_url }] : [],
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
  async run({ args, services, invocation, say = ENGLISH }) {
    const address = parseAddress(PULL, args.pr);
    const { owner, repo, id } = address;
    const missing = (say: Translator, repository: string, linked: boolean) =>
      linked
        ? say.t('source-pr-not-visible', id, repository)
        : say.t('source-pr-not-visible-anonymous', id, repository);
    const pull = await readAsAsker(services, invocation, address, missing, (client) =>
      client.pulls.get(owner, repo, Number(id)),
    );
    const state = pull.merged ? 'merged' : pull.state === 'open' && pull.draft ? 'draft' : pull.state;
    return {
      title: `${owner}/${repo}#${pull.number}: ${pull.title}`,
      status: pull.merged ? 'success' : 'info',
      fields: [
        { label: say.t('source-field-state'), value: pullState(state, say), inline: true },
        {
          label: say.t('source-field-author'),
          value: pull.user?.login ?? say.t('deploy-field-unknown'),
          inline: true,
        },
        { label: say.t('source-field-branches'), value: `${pull.head.ref} → ${pull.base.ref}`, inline: true },
      ],
      links: pull.html_url ? [{ label: say.t('source-open-pr'), url: pull.html_url }] : [],
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
