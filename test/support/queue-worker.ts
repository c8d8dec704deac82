// A Deckhand worker process for the multi-process tests: the real core with `--role worker`, pointed at
// a sandbox the test runs, whose "slack" messenger appends every post and edit to RECORD_FILE (JSON
// lines) instead of calling Slack. Run with tsx; prints "ready" once its workers run.
import { appendFileSync } from 'node:fs';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createApp } from '../../src/wiring';

const file = process.env.RECORD_FILE as string;
const config = loadConfig();
const app = await createApp({ config, logger: silentLogger, sandbox: false });
let posts = 0;
app.messengers.register('slack', {
  async post(conversationId, card) {
    posts += 1;
    appendFileSync(
      file,
      `${JSON.stringify({ op: 'post', pid: process.pid, conversationId, title: card.title, footer: card.footer, text: card.text, code: card.code?.text })}\n`,
    );
    return { platform: 'slack', conversationId, ref: { ts: `${process.pid}-${posts}` } };
  },
  async update(handle, card) {
    appendFileSync(
      file,
      `${JSON.stringify({ op: 'update', pid: process.pid, ref: handle.ref.ts, status: card.status, title: card.title, fields: card.fields, text: card.text, code: card.code?.text, attachments: card.attachments?.map((a) => a.content) })}\n`,
    );
  },
});
app.startWorkers();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
