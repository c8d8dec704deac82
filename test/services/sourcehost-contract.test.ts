/**
 * The source-host client against a strict mock served from GitHub's REST description
 * (specs/sourcehost/github-subset-openapi.json, the operations Deckhand uses): every request must
 * validate (parameters, body, `Accept` against the declared content types) and every spec-valid
 * answer (the description's examples, optional fields left out, each enum value, non-date strings)
 * must parse. And a refused credential (401/403 from the source-host emulator) points to /link source.
 */

import { type SourcehostSandbox, startSourcehostSandbox } from '@deckhand/sandbox/sourcehost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/core/errors';
import { SourcehostFactory } from '../../src/services/sourcehost';
import { type LoadedSpec, loadSpec } from '../support/openapi';
import { type SpecMock, startSpecMock, type Variant } from '../support/openapi-mock';

let spec: LoadedSpec;
let mock: SpecMock;
let factory: SourcehostFactory;

beforeAll(async () => {
  spec = await loadSpec('sourcehost/github-subset-openapi.json', { apiRoot: '' });
  mock = await startSpecMock([spec]);
  factory = new SourcehostFactory({ apiUrl: mock.url, maxWaitMs: 0, sleep: async () => {} } as never);
});

afterAll(async () => {
  await factory?.close();
  await mock?.close();
});

async function scenario(): Promise<string[]> {
  const client = factory.forToken('gho_contracttoken0000000000000000000000');
  const org = { kind: 'org', org: 'toolforge-repos' } as const;
  const calls: [string, () => Promise<unknown>][] = [
    ['imports.status', () => client.imports('mona', 'mytool').status()],
    [
      'imports.start',
      () => client.imports('mona', 'mytool').start({ vcs_url: 'https://svn.example.org/x' } as never),
    ],
    ['imports.authors', () => client.imports('mona', 'mytool').authors()],
    ['imports.largeFiles', () => client.imports('mona', 'mytool').largeFiles()],
    ['imports.setLfs', () => client.imports('mona', 'mytool').setLfs('opt_in')],
    ['imports.cancel', () => client.imports('mona', 'mytool').cancel()],
    ['migrations.list', () => client.migrations.list(org, { page: 1 } as never)],
    ['migrations.start', () => client.migrations.start(org, { repositories: ['mytool'] })],
    ['migrations.get', () => client.migrations.get(org, 42)],
    ['migrations.user.get', () => client.migrations.get({ kind: 'user' }, 42)],
    ['migrations.deleteArchive', () => client.migrations.deleteArchive(org, 42)],
    ['migrations.unlock', () => client.migrations.unlock(org, 42, 'mytool')],
    ['account.rateLimit', () => client.account.rateLimit()],
  ];
  const problems: string[] = [];
  for (const [name, call] of calls) {
    try {
      const value = JSON.stringify((await call()) ?? null);
      if (/NaN|Invalid Date/.test(value)) problems.push(`${name} gave ${value.slice(0, 200)}`);
    } catch (error) {
      problems.push(`${name} failed: ${(error as Error).message}`);
    }
  }
  return problems;
}

const VARIANTS: [string, Variant | undefined][] = [['description examples', undefined]];
for (const minimal of [false, true]) {
  for (const pick of [0, 1, 2, 3]) VARIANTS.push([`minimal=${minimal} pick=${pick}`, { minimal, pick }]);
}
VARIANTS.push(['odd strings', { oddStrings: true }]);

describe('the source-host client against github-subset-openapi.json', () => {
  it.each(VARIANTS)('requests validate and answers parse: %s', async (_label, variant) => {
    mock.variant = variant;
    mock.violations.length = 0;
    mock.exchanges.length = 0;
    const problems = await scenario();
    expect(mock.violations).toEqual([]);
    expect(problems).toEqual([]);
    // Positive control: the operations were reached.
    const reached = new Set(mock.exchanges.map((e) => e.operationId));
    for (const id of ['migrations/get-import-status', 'migrations/start-for-org', 'rate-limit/get']) {
      expect(reached, id).toContain(id);
    }
  });
});

describe('refused credentials', () => {
  let sandbox: SourcehostSandbox;
  let real: SourcehostFactory;
  beforeAll(async () => {
    sandbox = await startSourcehostSandbox({ stepMs: 10 });
    real = new SourcehostFactory({ apiUrl: sandbox.apiUrl, webUrl: sandbox.webUrl, maxWaitMs: 0 } as never);
  });
  afterAll(async () => {
    await real?.close();
    await sandbox?.close();
  });

  it('a 401 for a token the source host does not know points to /link source', async () => {
    const error = await real
      .forToken('gho_notarealtoken000000000000000000000000')
      .account.me()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(401);
    expect((error as UpstreamError).hint).toContain('/link source');
    expect((error as UpstreamError).hint).not.toMatch(/this tool/);
  });
});
