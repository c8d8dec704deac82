import { describe, expect, it } from 'vitest';
import { messages, runShellScript } from '../support/cli';

describe('deckhand shell: subscriptions', () => {
  it('shows the card reaching successful and the announcement once', async () => {
    const run = await runShellScript('/subscribe mytool\n/deploy mytool\n', { wait: 60 });
    expect(run.code).toBe(0);
    const all = messages(run.stdout);
    const card = all.filter((m) => m.includes('Deploy mytool')).at(-1);
    expect(card).toMatch(/Status\s+successful/);
    expect(run.stdout.match(/mytool: deployment successful/g)).toHaveLength(1);
  });
});
