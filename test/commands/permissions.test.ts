import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/reply';
import { startTestApp, type TestApp } from '../support/app';
import { linkDirectly, slackUser } from '../support/oauth-web';

/**
 * The permission matrix: admin (ADMINS), maintainer by config (TOOL_MAINTAINERS), maintainer by push
 * access (a linked source-host account that may push to the tool's repository), deploy-token holder
 * (/link tool), someone whose linked account may only read the repository, and a stranger — for a
 * read command, /deploy, and a destructive command.
 */
let t: TestApp;
/** The sandbox's own deploy token of mytool: `/link tool` checks a token with the platform first. */
const deployToken = (app: TestApp) => app.app.emulators.toolhost?.deployTokenFor('mytool') as string;

beforeAll(async () => {
  t = await startTestApp();
  await linkDirectly(t.app, slackUser('UPUSH'), 'mona', ['read:user']);
  await linkDirectly(t.app, slackUser('UREADER'), 'hubot', ['read:user']);
  const [stored] = await t.say(`/link tool mytool ${deployToken(t)}`, {
    user: 'UTOKEN',
    private: true,
  });
  expect(stored?.text).toContain('Stored a deploy token for mytool');
});
afterAll(async () => {
  await t.close();
});

/** The people of the matrix: their user id, and how they have (or lack) the right. */
const ADMIN = ['UADMIN', 'admin'] as const;
const BY_CONFIG = ['UMAINT', 'maintainer by config'] as const;
const BY_PUSH = ['UPUSH', 'maintainer by push access'] as const;
const TOKEN = ['UTOKEN', 'deploy-token holder'] as const;
const READER = ['UREADER', 'linked without push access'] as const;
const STRANGER = ['USTRANGER', 'stranger'] as const;
const MAINTAINERS = [ADMIN, BY_CONFIG, BY_PUSH];

const allowedRead = (card: Card | undefined) => expect(card?.title).toBe('Jobs of mytool');
const deployed = (card: Card | undefined) => expect(card?.title).toBe('Deploy mytool');
const asked = (card: Card | undefined) => expect(card?.title).toBe('Please confirm');

describe('permission matrix', () => {
  it.each([...MAINTAINERS, TOKEN, READER, STRANGER])('a read command is open to %s (%s)', async (user) => {
    allowedRead((await t.say('/jobs list mytool', { user }))[0]);
  });

  it.each([...MAINTAINERS, TOKEN])('/deploy is allowed to %s (%s)', async (user) => {
    deployed((await t.say('/deploy mytool', { user }))[0]);
  });

  it('/deploy is refused to a stranger, naming every way to get the right', async () => {
    const [card] = await t.say('/deploy mytool', { user: 'USTRANGER' });
    expect(card?.status).toBe('warning');
    expect(card?.text).toContain('Only maintainers of mytool can do that.');
    expect(card?.text).toContain('add mytool=slack:USTRANGER to TOOL_MAINTAINERS');
    expect(card?.text).toContain('link your source-host account with /deckhand link source');
    expect(card?.text).toContain('link a deploy token of mytool with /deckhand link tool mytool');
  });

  it('/deploy is refused to a linked account without push access, saying which repository', async () => {
    const [card] = await t.say('/deploy mytool', { user: 'UREADER' });
    expect(card?.text).toContain('Only maintainers of mytool can do that.');
    expect(card?.text).toContain('get push access to toolforge-repos/mytool for your linked account hubot');
  });

  it.each(MAINTAINERS)('a destructive command asks %s (%s) to confirm', async (user) => {
    asked((await t.say('/envvars delete mytool DB_PASSWORD', { user }))[0]);
  });

  it.each([TOKEN, READER, STRANGER])('a destructive command is refused to %s (%s)', async (user) => {
    const [card] = await t.say('/envvars delete mytool DB_PASSWORD', { user });
    expect(card?.text).toContain('Only maintainers of mytool can do that.');
    expect(card?.text).not.toContain('link tool');
    expect(card?.buttons ?? []).toEqual([]);
  });

  it('a deploy token covers only its own tool', async () => {
    const [card] = await t.say('/deploy demo', { user: 'UTOKEN' });
    expect(card?.text).toContain('Only maintainers of demo can do that.');
  });

  it('admin-only commands say so: /audit without a tool', async () => {
    const [card] = await t.say('/audit', { user: 'UMAINT' });
    expect(card?.text).toContain('Only Deckhand admins can do that.');
    expect(card?.text).toContain('ADMINS');
  });
});

describe('READ_ACCESS=maintainers', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ READ_ACCESS: 'maintainers' });
    await linkDirectly(strict.app, slackUser('UPUSH'), 'mona', ['read:user']);
    await strict.say(`/link tool mytool ${deployToken(strict)}`, { user: 'UTOKEN', private: true });
  });
  afterAll(async () => {
    await strict.close();
  });

  it.each(['UADMIN', 'UMAINT', 'UPUSH', 'UTOKEN'])('read commands stay open to %s', async (user) => {
    allowedRead((await strict.say('/jobs list mytool', { user }))[0]);
  });

  it('a stranger is refused a read command, and told how to get access', async () => {
    const [card] = await strict.say('/jobs list mytool', { user: 'USTRANGER' });
    expect(card?.text).toContain('Only maintainers of mytool can see mytool here (READ_ACCESS=maintainers).');
    expect(card?.text).toContain('/deckhand link source');
  });
});
