// The worker process of the watch-scale benchmark: the real core (`createApp`, `startWorkers`) with
// its queue workers, pointed at the counting sandbox through deploy tokens read from TOKENS_FILE
// (thousands of tools: too many for one environment variable). Its "slack" messenger keeps every card
// edit (when, which card, which Status) in memory and writes them to RECORD_FILE when asked to stop.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../src/config';
import { silentLogger } from '../src/log';
import { createApp } from '../src/wiring';

const tokens = readFileSync(process.env.TOKENS_FILE as string, 'utf8')
  .trim()
  .split('\n')
  .join(',');
const config = loadConfig({ ...process.env, TOOLHOST_DEPLOY_TOKENS: tokens });
const app = await createApp({ config, logger: silentLogger, sandbox: false });
const edits: [number, string, string][] = [];
app.messengers.register('slack', {
  async post(conversationId) {
    return { platform: 'slack', conversationId, ref: { ts: 'posted' } };
  },
  async update(handle, card) {
    const status = card.fields?.find((f) => f.label === 'Status')?.value ?? card.status ?? '';
    edits.push([Date.now(), handle.ref.ts ?? '', status]);
  },
});
app.startWorkers();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  writeFileSync(process.env.RECORD_FILE as string, JSON.stringify(edits));
  void app.close().then(() => process.exit(0));
});
