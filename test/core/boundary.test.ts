import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED,
  checkFile,
  checkRepository,
  formatViolations,
  importsOf,
  layerOf,
} from '../support/boundaries';

const root = join(import.meta.dirname, '..', '..');

describe('layer boundaries (DESIGN.md §Layout, allowed edges)', () => {
  it('every import in src/, adapters/, commands/, packages/sandbox/ and bench/ follows the table of allowed edges', () => {
    const { files, violations, stale } = checkRepository(root);
    expect(files).toBeGreaterThan(100);
    expect(formatViolations(violations)).toBe('');
    // The list of edges waiting for a fix only shrinks.
    expect(stale).toEqual([]);
  });

  it('classifies every folder of the tree', () => {
    expect(layerOf('adapters/slack/adapter.ts')).toBe('adapters');
    expect(layerOf('commands/toolhost/deploy.ts')).toBe('commands');
    expect(layerOf('packages/sandbox/src/media/index')).toBe('sandbox');
    expect(layerOf('src/sandbox/media/index')).toBeUndefined();
    expect(layerOf('bench/ack.ts')).toBe('bench');
    expect(layerOf('test/fakes/slack/server.ts')).toBe('tests');
    expect(layerOf('src/wiring/index.ts')).toBe('wiring');
    expect(layerOf('src/coordination/locks.ts')).toBe('coordination');
    expect(layerOf('src/main.ts')).toBe('cli');
    expect(Object.keys(ALLOWED)).toContain('wiring');
  });

  it('tells type-only imports from value imports (the compiler parses them)', () => {
    const edges = importsOf(
      'x.ts',
      [
        `import type { A } from './a';`,
        `import { type B, type C } from './b';`,
        `import { D, type E } from './d';`,
        `export type { F } from './f';`,
        `type G = import('./g').G;`,
        `const h = await import('./h');`,
      ].join('\n'),
    );
    expect(edges.map((edge) => [edge.specifier, edge.typeOnly])).toEqual([
      ['./a', true],
      ['./b', true],
      ['./d', false],
      ['./f', true],
      ['./g', true],
      ['./h', false],
    ]);
  });

  describe('fails on a forbidden import (the check itself works)', () => {
    it('an adapter importing the composition root, a store, or another SDK', () => {
      const text = [
        `import type { App } from '../../src/wiring';`,
        `import { DeliveryDeduper } from '../../src/store/dedupe';`,
        `import { Client } from 'discord.js';`,
        `import { App as Bolt } from '@slack/bolt';`,
        `import type { Reply } from '../../src/core/reply';`,
      ].join('\n');
      const reasons = checkFile('adapters/slack/adapter.ts', text).map((v) => `${v.line}: ${v.reason}`);
      expect(reasons).toEqual([
        '1: adapters → wiring is not an allowed edge',
        '2: adapters → store is not an allowed edge',
        '3: adapters imports the discord SDK (only adapters/discord/ may)',
      ]);
    });

    it('a command importing web, the sandbox, or a store by value (types are allowed)', () => {
      const text = [
        `import { SourceLinker } from '../../src/web/oauth-flow';`,
        `import { startMediaSandbox } from '@deckhand/sandbox/media';`,
        `import { RedisActionStore } from '../../src/store/actions';`,
        `import type { SubscriptionStore } from '../../src/store/subscriptions';`,
        `import { Queue } from 'bullmq';`,
        `import { x } from '../media/x';`,
      ].join('\n');
      const reasons = checkFile('commands/toolhost/deploy.ts', text).map((v) => `${v.line}: ${v.reason}`);
      expect(reasons).toEqual([
        '1: commands → web is not an allowed edge',
        '2: commands → sandbox is not an allowed edge',
        '3: commands → store is not an allowed edge (types only, with `import type`)',
        '5: commands imports bullmq (only queue, coordination, wiring may)',
        '6: commands/toolhost/ imports commands/media/ (siblings do not import each other)',
      ]);
    });

    it('core importing anything of ours but itself and the shared leaves', () => {
      const text = [`import { x } from '../store/redis';`, `import { y } from './reply';`].join('\n');
      expect(checkFile('src/core/dispatch.ts', text).map((v) => v.reason)).toEqual([
        'core → store is not an allowed edge',
      ]);
    });

    it('coordination used by the queue and the wiring, a lock type by a command, nothing of ours above it', () => {
      const lock = `import { ResourceLocks } from '../coordination/locks';`;
      expect(checkFile('src/queue/command-processor.ts', lock)).toEqual([]);
      expect(checkFile('src/wiring/app.ts', lock)).toEqual([]);
      expect(checkFile('src/store/actions.ts', lock).map((v) => v.reason)).toEqual([
        'store → coordination is not an allowed edge',
      ]);
      expect(checkFile('src/web/server.ts', lock).map((v) => v.reason)).toEqual([
        'web → coordination is not an allowed edge',
      ]);
      expect(
        checkFile(
          'commands/toolhost/start-once.ts',
          `import type { ResourceLocks } from '../../src/coordination/locks';`,
        ),
      ).toEqual([]);
      const upward = [
        `import type { CommandJobData } from '../queue/command-queue';`,
        `import { bullPrefix } from '../store/queue-keys';`,
        `import { DelayedError } from 'bullmq';`,
      ].join('\n');
      expect(checkFile('src/coordination/lanes.ts', upward).map((v) => `${v.line}: ${v.reason}`)).toEqual([
        '1: coordination → queue is not an allowed edge',
        '2: coordination → store is not an allowed edge',
      ]);
    });

    it('the sandbox package reached from anywhere but the wiring and the benches', () => {
      const text = `import { startEmulators } from '@deckhand/sandbox';`;
      expect(checkFile('src/queue/upload-setup.ts', text)).toHaveLength(1);
      expect(checkFile('src/web/oauth-accounts.ts', text)).toHaveLength(1);
      expect(checkFile('src/cli/sandbox.ts', text)).toHaveLength(1);
      expect(checkFile('src/wiring/emulators.ts', text)).toEqual([]);
      expect(
        checkFile('bench/upload.ts', `import type { StoredFile } from '@deckhand/sandbox/media/state';`),
      ).toEqual([]);
    });

    it('the sandbox package importing Deckhand', () => {
      const text = [
        `import { UsageError } from '../../../../src/core/errors';`,
        `import { Hono } from 'hono';`,
        `import { seedTools } from './seed';`,
        `import { x } from '../../../../scripts/x';`,
      ].join('\n');
      expect(
        checkFile('packages/sandbox/src/toolhost/jobs.ts', text).map((v) => `${v.line}: ${v.reason}`),
      ).toEqual([
        '1: sandbox → core is not an allowed edge',
        '4: sandbox imports scripts/x, outside the layered tree',
      ]);
    });

    it("a bench drives Deckhand, the SDKs and the tests' fakes, but nothing outside the tree", () => {
      const text = [
        `import { createApp } from '../src/wiring';`,
        `import { Client } from 'discord.js';`,
        `import { startFakeSlack } from '../test/fakes/slack';`,
        `import { x } from '../scripts/x';`,
      ].join('\n');
      expect(checkFile('bench/ack.ts', text).map((v) => `${v.line}: ${v.reason}`)).toEqual([
        '4: bench imports scripts/x, outside the layered tree',
      ]);
    });
  });
});
