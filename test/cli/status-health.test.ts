import { startToolhostSandbox, type ToolhostSandbox } from '@deckhand/sandbox/toolhost';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { platformHealthLines } from '../../src/wiring/status';
import { useStarted } from '../support/started';

let sandbox: ToolhostSandbox;

useStarted(
  () => startToolhostSandbox({ stepMs: 50 }),
  (started) => {
    sandbox = started;
  },
);

describe('deckhand status: the tool platform health', () => {
  const config = () => loadConfig({ TOOLHOST_URL: sandbox.externalUrl, REDIS_URL: 'redis://127.0.0.1:1' });

  it('lists every API as healthy, then the one whose health endpoint reports an error', async () => {
    const healthy = await platformHealthLines(config());
    expect(healthy).toMatch(/^Tool platform: healthy\n/);
    for (const api of ['builds', 'components', 'jobs', 'envvars', 'logs']) {
      expect(healthy).toMatch(new RegExp(`^  ${api}\\s+OK$`, 'm'));
    }
    sandbox.controls.setUnhealthy('builds', 'registry unreachable');
    try {
      const sick = await platformHealthLines(config());
      expect(sick).toMatch(/^Tool platform: 1 API\(s\) not healthy\n/);
      expect(sick).toMatch(/^ {2}builds\s+ERROR\s+.*registry unreachable/m);
      expect(sick).toMatch(/^ {2}jobs\s+OK$/m);
    } finally {
      sandbox.controls.setUnhealthy('builds', undefined);
    }
  });

  it('without a configured platform, reports the running sandbox’s emulator', async () => {
    const lines = await platformHealthLines(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }),
      sandbox.externalUrl,
    );
    expect(lines).toMatch(/^Tool platform \(sandbox emulator\): healthy\n/);
    expect(lines).toMatch(/^ {2}jobs\s+OK$/m);
  });

  it('says so when no platform URL is configured', async () => {
    expect(await platformHealthLines(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }))).toContain(
      'no TOOLHOST_URL or TOOLHOST_INTERNAL_URL set',
    );
  });
});
