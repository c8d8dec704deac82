import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/core/watch';
import { announces } from '../../src/queue/notify-filter';
import type { Subscription } from '../../src/store/subscriptions';

const sub = (extra: Partial<Subscription> = {}): Subscription => ({
  conversationId: 'slack:T1:C1',
  platform: 'slack',
  tool: 'mytool',
  kinds: ['builds', 'deploys', 'jobs'],
  failuresOnly: false,
  changesOnly: false,
  createdBy: 'slack:U1',
  ...extra,
});

const deploy = (to: string, outcome?: WatchEvent['outcome'], terminal = true): WatchEvent => ({
  tool: 'mytool',
  kind: 'deployment',
  id: 'd1',
  from: 'running',
  to,
  at: 0,
  detail: '',
  terminal,
  ...(outcome ? { outcome } : {}),
});

describe('which events a subscription announces', () => {
  it('announces finished builds and deployments, not progress', () => {
    expect(announces(sub(), deploy('successful', 'success'), undefined)).toBe(true);
    expect(announces(sub(), deploy('failed', 'failure'), 'success')).toBe(true);
    expect(announces(sub(), deploy('running', undefined, false), undefined)).toBe(false);
  });

  it('respects the subscribed kinds and broken subscriptions', () => {
    expect(announces(sub({ kinds: ['builds'] }), deploy('successful', 'success'), undefined)).toBe(false);
    expect(announces(sub({ broken: 'not_in_channel' }), deploy('failed', 'failure'), undefined)).toBe(false);
  });

  it('--failures-only announces failures only', () => {
    const s = sub({ failuresOnly: true });
    expect(announces(s, deploy('successful', 'success'), 'failure')).toBe(false);
    expect(announces(s, deploy('failed', 'failure'), 'failure')).toBe(true);
    expect(announces(s, deploy('cancelled', 'cancelled'), 'success')).toBe(false);
  });

  it('--changes-only announces failed→successful and successful→failed, nothing else', () => {
    const s = sub({ changesOnly: true });
    expect(announces(s, deploy('failed', 'failure'), 'success')).toBe(true);
    expect(announces(s, deploy('successful', 'success'), 'failure')).toBe(true);
    expect(announces(s, deploy('successful', 'success'), 'success')).toBe(false);
    expect(announces(s, deploy('failed', 'failure'), 'failure')).toBe(false);
    expect(announces(s, deploy('failed', 'failure'), undefined)).toBe(false);
    expect(announces(s, deploy('cancelled', 'cancelled'), 'success')).toBe(false);
  });

  it('announces a job only when its outcome changes', () => {
    const job: WatchEvent = {
      tool: 'mytool',
      kind: 'job',
      id: 'web',
      from: 'running',
      to: 'failed',
      at: 0,
      detail: '',
      terminal: false,
      outcome: 'failure',
    };
    expect(announces(sub(), job, 'success')).toBe(true);
    expect(announces(sub(), job, 'failure')).toBe(false);
  });
});
