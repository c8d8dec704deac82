/** The contract driver of the terminal chat (the shell adapter writing to a captured output). */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { inject } from 'vitest';
import { ShellAdapter } from '../../../adapters/shell/shell-adapter';
import { loadConfig } from '../../../src/config';
import { silentLogger } from '../../../src/log';
import { createApp } from '../../../src/wiring';
import { testPrefix } from '../../support/redis';
import type { ContractDriver, Shown } from './driver';
import { formCommand, pressCommand } from './press-command';

export async function shellDriver(): Promise<ContractDriver> {
  const { host, port } = inject('redis');
  const db = Number(process.env.VITEST_POOL_ID ?? 1) % 64;
  const dataDir = mkdtempSync(join(tmpdir(), 'deckhand-shell-contract-'));
  const config = loadConfig({
    REDIS_URL: `redis://${host}:${port}/${db}`,
    REDIS_KEY_PREFIX: testPrefix(),
    DATA_DIR: dataDir,
    SANDBOX_STEP_MS: '20',
    LOG_LEVEL: 'silent',
  });
  const app = await createApp({
    config,
    logger: silentLogger,
    sandbox: true,
    extraAdmins: ['shell:operator'],
  });
  app.runner.registry.add(pressCommand as never);
  app.runner.registry.add(formCommand as never);
  /** Every print of the terminal, in order (one write per card or card update). */
  const prints: string[] = [];
  const output = new Writable({
    write(chunk, _encoding, done) {
      prints.push(String(chunk));
      done();
    },
  });
  // Lines are typed as in a script (a button's number); a form's answers come as `--answers` would,
  // from the value the contract gives once the form is open.
  const input = new PassThrough();
  const answers: ((value: string) => void)[] = [];
  const pendingValues: string[] = [];
  const shell = new ShellAdapter({
    runner: app.runner as never,
    watches: app.services.watches,
    input,
    output,
    interactive: false,
    userName: 'operator',
    filesDir: join(dataDir, 'files'),
    answers: (form) =>
      new Promise((resolve) => {
        const name = form.fields[0]?.name ?? 'value';
        const give = (value: string) => resolve({ [name]: value });
        const ready = pendingValues.shift();
        if (ready !== undefined) give(ready);
        else answers.push(give);
      }),
  });
  app.messengers.register('shell', shell);
  app.startWorkers();
  const script = shell.runScript();
  const shownNow = (): Shown[] => {
    const byId = new Map<string, Shown>();
    for (const print of prints) {
      const head = /^card (\d+)( updated)?/.exec(print);
      if (!head) continue;
      const id = head[1] as string;
      const files = [...print.matchAll(/\(file written: (.+)\)/g)].map((m) => ({
        name: m[1] as string,
        content: readFileSync(m[1] as string, 'utf8'),
      }));
      const before = byId.get(id);
      byId.set(id, { id, text: print, files, edits: before ? before.edits + 1 : 0 });
    }
    return [...byId.values()];
  };
  return {
    platform: 'shell',
    app,
    conversationId: shell.conversationId,
    // A terminal has no message size limit: a card is printed whole.
    maxMessageChars: Number.POSITIVE_INFINITY,
    cannot: {
      nativeButtons: 'a button is pressed by typing its number, a deliberate line: each press runs',
      rateLimits: 'a terminal has no rate limit: a burst of cards is printed whole and in order',
      goneConversations: 'the terminal cannot go away: an announcement to it is always printed',
      threads: 'a terminal has no threads: later events are printed as cards of their own',
    },
    async shown() {
      return shownNow();
    },
    async threadReplies() {
      return [];
    },
    async pictures() {
      return [...prints.join('').matchAll(/\(picture written: (.+)\)/g)].map((m) => ({
        name: m[1] as string,
        data: readFileSync(m[1] as string),
      }));
    },
    async inertProblems(text) {
      const last = prints.at(-1) ?? '';
      const problems: string[] = [];
      // Non-interactive output uses no colours at all, so any escape character came from the card.
      if (last.includes('\x1b')) problems.push('a terminal control sequence reached the output');
      if (!last.includes(text.replaceAll('\x1b', '')))
        problems.push('the untrusted text is not shown as written');
      return problems;
    },
    rateLimitNextPost() {
      throw new Error('the shell has no rate limits (see cannot.rateLimits)');
    },
    postAttempts(text) {
      return prints.filter((p) => /^card \d+\n/.test(p) && p.includes(text)).length;
    },
    removeBot() {
      throw new Error('the terminal cannot go away (see cannot.goneConversations)');
    },
    // The terminal has one user; the `stranger` presses as that user too.
    userId: () => 'operator',
    async press(messageId, label) {
      const print = [...prints].reverse().find((p) => new RegExp(`^card ${messageId}\\b`).test(p));
      const number = print && new RegExp(`\\[(\\d+)\\] ${label}`).exec(print)?.[1];
      if (!number) throw new Error(`no button ${label} on card ${messageId}`);
      input.write(`${number}\n`);
    },
    async answerForm(_who, value) {
      const give = answers.shift();
      if (give) give(value);
      else pendingValues.push(value);
    },
    async idle() {},
    seen: () => prints.join(''),
    violations: () => [],
    async close() {
      input.end();
      await script;
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
