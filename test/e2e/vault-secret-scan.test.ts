import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CALENDAR_USERS } from '@deckhand/sandbox/calendar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config';
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation } from '../../src/core/command';
import type { Card } from '../../src/core/reply';
import { createLogger, type Logger } from '../../src/log';
import { ToolhostClientFactory } from '../../src/services/toolhost';
import { type App, createApp } from '../../src/wiring';
import { messages, runShellScript } from '../support/cli';
import { startAccountWeb } from '../support/oauth-web';
import { testPrefix } from '../support/redis';

/**
 * No secret value appears in any log line or in any message the bot posts, across the flows that
 * handle secrets: linking tokens, keys and passwords (privately, refused in a channel, through the
 * secret page), envvars, a 401 from the platform that quotes the refused token, and /token show —
 * whose private answer, shown on request to the person who asked, is the one place its value may be.
 */
const SECRETS = {
  deployToken: 'scan-deploy-token-7c1f2a9e',
  badToken: 'scan-refused-token-5be04d11',
  leaked: 'scan-leaked-key-93b1c0de',
  mediaKey: 'scan-media-key-0a4cf5e2',
  formKey: 'scan-form-key-61d9e7a3',
  calendar: 'scan calendar pass 4e2f',
  envvar: 'scan-envvar-value-d84a66c0',
  formEnvvar: 'scan-form-envvar-1f3b2ac7',
};

let app: App;
let logger: Logger;
let logFile: string;
const cards: Card[] = [];

function invocation(user: string, isPrivate: boolean): Invocation {
  return {
    user: { platform: 'slack', id: user, name: user, workspace: 'T1' },
    conversation: { platform: 'slack', workspace: 'T1', channel: isPrivate ? 'D9' : 'C9' },
    conversationId: isPrivate ? 'slack:T1:D9' : 'slack:T1:C9',
    isPrivate,
  };
}

const forms: { formId: string }[] = [];
const surface: CardSurface = {
  async reply(card) {
    cards.push(card);
    return { platform: 'slack', conversationId: 'slack:T1:C9', ref: { ts: String(cards.length) } };
  },
  async update(_handle, card) {
    cards.push(card);
  },
  async openForm(formId) {
    forms.push({ formId });
  },
};
const say = (text: string, user = 'UADMIN', isPrivate = false) =>
  app.runner.handleText(text, invocation(user, isPrivate), surface);

beforeAll(async () => {
  const { host, port } = inject('redis');
  const dir = mkdtempSync(join(tmpdir(), 'deckhand-scan-'));
  logFile = join(dir, 'deckhand.log');
  const config = loadConfig({
    REDIS_URL: `redis://${host}:${port}/${Number(process.env.VITEST_POOL_ID ?? 1) % 64}`,
    REDIS_KEY_PREFIX: testPrefix(),
    SANDBOX_STEP_MS: '20',
    DATA_DIR: dir,
    ADMINS: 'slack:UADMIN',
  });
  logger = createLogger({ level: 'trace', file: logFile });
  app = await createApp({ config, logger, sandbox: true });
  app.messengers.register('slack', {
    async post(_id, card) {
      cards.push(card);
      return { platform: 'slack', conversationId: 'slack:T1:C9', ref: { ts: String(cards.length) } };
    },
    async update(_handle, card) {
      cards.push(card);
    },
  });
  app.startWorkers();
});
afterAll(async () => {
  await app?.close();
});

describe('no secret in logs or chat messages', () => {
  it('across link, secret form, envvars, token show and a 401 that quotes the token', async () => {
    const web = await startAccountWeb(app);
    try {
      await say(`/link tool mytool ${SECRETS.deployToken}`, 'UTOKEN', true);
      await say(`/link media ${SECRETS.leaked}`, 'ULEAK');
      await say(`/link media ${SECRETS.mediaKey}`, 'UMEDIA', true);
      await say(`/link calendar editor "${SECRETS.calendar}"`, 'UCAL', true);
      await say('/link media', 'UFORM');
      // The page checks the key with the media host before storing it: make it one the host knows.
      app.emulators.media?.controls.addAccount(SECRETS.formKey);
      const url = cards.at(-1)?.links?.[0]?.url as string;
      const page = await fetch(url);
      const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] as string;
      const saved = await fetch(url, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, apiKey: SECRETS.formKey }).toString(),
      });
      expect(await saved.text()).toContain('Deckhand stored a media API key');

      await say(`/envvars set mytool SCAN_VAR ${SECRETS.envvar}`, 'UADMIN', true);
      await say('/envvars set mytool SCAN_FORM_VAR', 'UADMIN');
      await app.runner.handleForm(
        forms.at(-1)?.formId as string,
        { value: SECRETS.formEnvvar },
        invocation('UADMIN', false),
        surface,
      );
      await say('/envvars list mytool');

      const before = cards.length;
      await say('/token show mytool', 'UADMIN', true);
      const tokenCard = cards[before] as Card;
      const sandboxToken = app.emulators.toolhost?.deployTokenFor('mytool') as string;
      expect(tokenCard.visibility).toBe('private');
      expect(tokenCard.fields?.[0]?.value).toBe(sandboxToken);

      // A tool reached only with deploy tokens: the platform's 401 quotes the refused token.
      app.services.toolhost = new ToolhostClientFactory({ externalUrl: app.emulators.toolhost?.externalUrl });
      // `/link` checks the token with the platform first: the refusal quotes it, masked, and stores nothing.
      await say(`/link tool mytool ${SECRETS.badToken}`, 'UBAD', true);
      expect(cards.at(-1)?.text).toContain('The deploy token for tool mytool was refused');
      expect(cards.at(-1)?.text).toContain('nothing was stored');

      await new Promise<void>((done) => logger.flush(() => done()));
      const log = readFileSync(logFile, 'utf8');
      expect(log).toContain('"msg":"command"');
      const shown = JSON.stringify(cards.filter((c) => c !== tokenCard));
      for (const [name, secret] of Object.entries({ ...SECRETS, sandboxToken })) {
        expect(log, `${name} in the log`).not.toContain(secret);
        expect(shown, `${name} in a chat message`).not.toContain(secret);
      }
    } finally {
      await web.close();
    }
  });

  it('in the terminal chat (the real CLI): neither its log file nor its messages show a secret', async () => {
    const run = await runShellScript(
      [
        `/link tool mytool ${SECRETS.deployToken}`,
        `/link media ${SECRETS.mediaKey}`,
        `/link calendar editor "${SECRETS.calendar}"`,
        // Accepted by the sandbox's calendar (`/link` checks a password with the site first).
        `/link calendar ${SANDBOX_CALENDAR_USERS.contributor.user} "${SANDBOX_CALENDAR_USERS.contributor.appPassword}"`,
        `/envvars set mytool CLI_VAR ${SECRETS.envvar}`,
        '/whoami',
        '/envvars list mytool',
        '',
      ].join('\n'),
      { wait: 5 },
    );
    expect(run.code).toBe(0);
    expect(run.log).toContain('"msg":"command"');
    const botMessages = messages(run.stdout)
      .map((m) =>
        m
          .split('\n')
          .filter((line) => !line.startsWith('> '))
          .join('\n'),
      )
      .join('\n');
    expect(botMessages).toContain(
      'The calendar site refused this application password, so nothing was stored',
    );
    expect(botMessages).toContain('Stored a calendar account (casey) for you.');
    const typed = { ...SECRETS, casey: SANDBOX_CALENDAR_USERS.contributor.appPassword };
    for (const [name, secret] of Object.entries(typed)) {
      expect(run.log, `${name} in the log`).not.toContain(secret);
      expect(botMessages, `${name} in a message`).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  });
});
