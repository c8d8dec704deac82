/**
 * The tool-platform client and the commands that render its answers, against a strict mock served
 * from the platform's own OpenAPI files (specs/toolforge: builds 2.4.0, components 0.6.0, jobs
 * 4.11.1; envvars from envvars-schemas.md, which has no published spec). Every request must
 * validate (parameters, body, and `Accept` against the declared content types), and every
 * spec-valid answer (the spec's examples, optional fields left out, each enum value and `anyOf`
 * branch, strings that are not dates where the schema says string) must parse and render without
 * "NaN", "undefined", "Invalid Date" or "does not understand".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AppServices } from '../../commands/services';
import { buildLatestCommand, buildListCommand, buildShowCommand } from '../../commands/toolhost/build';
import { buildLogsCommand, buildQuotaCommand } from '../../commands/toolhost/build-extra';
import {
  configDeleteCommand,
  configGenerateCommand,
  configShowCommand,
} from '../../commands/toolhost/config';
import { deployCommand } from '../../commands/toolhost/deploy';
import {
  deploymentCancelCommand,
  deploymentDeleteCommand,
  deploymentListCommand,
  deploymentShowCommand,
} from '../../commands/toolhost/deployment';
import { envvarsListCommand, envvarsQuotaCommand, envvarsShowCommand } from '../../commands/toolhost/envvars';
import {
  jobsDeleteCommand,
  jobsImagesCommand,
  jobsListCommand,
  jobsQuotaCommand,
  jobsShowCommand,
} from '../../commands/toolhost/jobs';
import type { CommandDefinition } from '../../src/core/command';
import type { DraftCard } from '../../src/core/reply';
import { HttpClient } from '../../src/services/http';
import { readToolhostError, ToolhostClient } from '../../src/services/toolhost';
import { ToolhostSession } from '../../src/services/toolhost/session';
import { WarningInbox, WarningLedger } from '../../src/services/toolhost/warnings';
import { type LoadedSpec, loadSpec, specFromDocument } from '../support/openapi';
import {
  type KeepOptional,
  type SpecMock,
  startSpecMock,
  type UndeclaredQuery,
  type Variant,
} from '../support/openapi-mock';
import { envvarsSpec } from '../support/toolforge-envvars-spec';

/**
 * Optional in the specs, needed by the client, always sent by the real services (each cited).
 * These are the only fields a "minimal" answer keeps beyond the required ones; see specs/audit-services.md.
 */
const KEEP: KeepOptional[] = [
  { schema: 'Build', property: 'build_id', reason: 'B internal/build.go getBuild: BuildId: &run.Name' },
  {
    schema: 'NewBuild',
    property: 'name',
    reason: 'B internal/build.go Start: Name set from the created PipelineRun',
  },
  { schema: 'GetResponse', property: 'build', reason: 'B internal/api.go Get: answers {build} on 200' },
  { schema: 'LatestResponse', property: 'build', reason: 'B internal/api.go Latest: answers {build} on 200' },
  {
    schema: 'StartResponse',
    property: 'new_build',
    reason: 'B internal/api.go Start: answers {new_build} on 200',
  },
  { schema: 'GetResponse', property: 'envvar', reason: 'envvars-schemas.md: every 200 carries the envvar' },
  {
    schema: 'JobResponse',
    property: 'job',
    reason: 'J tjf/api/jobs.py api_get_job/api_create_job: JobResponse(job=…)',
  },
  {
    schema: 'DeployToken',
    property: 'token',
    reason: 'C components/api/tool_router.py: the deploy token answers carry the stored token',
  },
];

/**
 * jobs-openapi.yaml types a log answer as a bare `string`; what the service streams is one JSON
 * object per line, `{pod, container, datetime, message}` (J tjf/runtimes/k8s/jobs.py `format_logs`).
 * Any string is spec-valid, so the mock sends what the service sends, with odd values per variant.
 */
function jobLogLines(generated: unknown): string {
  const odd = generated === 'not-a-date';
  const entry = (message: string) =>
    `${JSON.stringify({ pod: 'bot-1', container: 'job', datetime: odd ? 'not-a-date' : '2026-05-13T10:15:00', message })}\n`;
  return entry('started') + entry('done');
}

/** See specs/audit-services.md. */
const UNDECLARED_QUERY: UndeclaredQuery[] = [
  {
    spec: 'jobs',
    operation: 'get_logs',
    names: ['follow', 'lines'],
    reason:
      'J tjf/api/jobs.py api_get_logs passes request.query_params to core.get_logs; the spec declares none',
  },
];

/**
 * jobs-openapi.yaml 4.11.1 declares `DefinedCommonJob.status` as `oneOf` three status schemas that
 * all accept any CommonJobStatus (none forbids the others' fields), so no object can match exactly
 * one: as written, no answer with a `status` is valid, yet the service always sends one (J
 * tjf/api/models.py). The mock reads that `oneOf` as `anyOf` (specs/audit-services.md).
 */
async function jobsSpecWithSatisfiableStatus(): Promise<LoadedSpec> {
  const { document } = await loadSpec('jobs');
  const patched = structuredClone(document);
  const at = (node: unknown, key: string | number) => (node as Record<string | number, unknown>)[key];
  const definedCommon = at(at(patched.components, 'schemas'), 'DefinedCommonJob');
  const status = at(at(at(at(definedCommon, 'allOf'), 1), 'properties'), 'status') as Record<string, unknown>;
  status.anyOf = status.oneOf;
  delete status.oneOf;
  return specFromDocument('jobs', patched, '/jobs');
}

let specs: LoadedSpec[];
let mock: SpecMock;

beforeAll(async () => {
  specs = [
    await loadSpec('builds'),
    await loadSpec('components'),
    await jobsSpecWithSatisfiableStatus(),
    await envvarsSpec(),
  ];
  mock = await startSpecMock(specs, { keep: KEEP, undeclaredQuery: UNDECLARED_QUERY });
  mock.overrides.set('get_logs', jobLogLines);
});

afterAll(async () => {
  await mock?.close();
});

function clientFor(url: string): ToolhostClient {
  const http = new HttpClient({
    service: 'toolhost',
    baseUrl: url,
    retries: 0,
    readError: readToolhostError,
  });
  const inbox = new WarningInbox(new WarningLedger(), 'mytool');
  return new ToolhostClient(new ToolhostSession('mytool', { mode: 'certificate' }, http, inbox), inbox);
}

interface Rendered {
  name: string;
  cards: DraftCard[];
  error?: string;
}

/** Runs a command's `run` with the client on the mock; collects what it posts and returns. */
async function runCommand<S extends z.ZodObject>(
  definition: CommandDefinition<S, AppServices>,
  raw: Record<string, unknown>,
): Promise<Rendered> {
  const client = clientFor(mock.url);
  const cards: DraftCard[] = [];
  const services = {
    toolhost: { forTool: () => client },
    accounts: {
      credentials: { deployToken: async () => undefined },
      // Commands register the secrets they read (envvar values, tokens); nothing to mask here.
      secrets: { register: async () => undefined, registerEnvvar: async () => undefined },
    },
    // One command at a time here: the start-once lock is a plain memory (src/coordination/locks.ts is Redis's).
    locks: memoryLocks(),
  } as unknown as AppServices;
  try {
    const card = await definition.run({
      args: definition.args.parse(raw),
      services,
      invocation: { user: { platform: 'slack', id: 'U1' }, isPrivate: true } as never,
      reply: async (c) => {
        cards.push(c);
        return undefined;
      },
      update: async () => {},
      openForm: async () => false,
    });
    if (card) cards.push(card);
    return { name: definition.name, cards };
  } catch (error) {
    return { name: definition.name, cards, error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

const BAD_TEXT = /NaN|undefined|Invalid Date|does not understand|\[object Object\]/;

/** Every command and client call of the scenario, once. */
async function scenario(): Promise<Rendered[]> {
  const tool = { tool: 'mytool' };
  const out: Rendered[] = [];
  out.push(await runCommand(buildListCommand, tool));
  out.push(await runCommand(buildShowCommand, { ...tool, id: 'mytool-buildpacks-pipelinerun-abcde' }));
  out.push(await runCommand(buildLatestCommand, tool));
  out.push(await runCommand(buildLogsCommand, { ...tool, id: 'mytool-buildpacks-pipelinerun-abcde' }));
  out.push(await runCommand(buildQuotaCommand, tool));
  out.push(await runCommand(configShowCommand, tool));
  out.push(await runCommand(configGenerateCommand, tool));
  out.push(await runCommand(configDeleteCommand, tool));
  out.push(await runCommand(deployCommand, tool));
  out.push(await runCommand(deploymentListCommand, tool));
  out.push(await runCommand(deploymentShowCommand, { ...tool, id: '20260513-101500-abcdefghij' }));
  out.push(await runCommand(deploymentCancelCommand, { ...tool, id: '20260513-101500-abcdefghij' }));
  out.push(await runCommand(deploymentDeleteCommand, { ...tool, id: '20260513-101500-abcdefghij' }));
  out.push(await runCommand(jobsListCommand, tool));
  out.push(await runCommand(jobsShowCommand, { ...tool, job: 'bot' }));
  out.push(await runCommand(jobsDeleteCommand, { ...tool, job: 'bot' }));
  out.push(await runCommand(jobsImagesCommand, tool));
  out.push(await runCommand(jobsQuotaCommand, tool));
  out.push(await runCommand(envvarsListCommand, tool));
  out.push(await runCommand(envvarsShowCommand, { ...tool, name: 'API_TOKEN' }));
  out.push(await runCommand(envvarsQuotaCommand, tool));
  // Client calls no command above makes.
  const client = clientFor(mock.url);
  const calls: [string, () => Promise<unknown>][] = [
    [
      'builds.start',
      () => client.builds.start({ source_url: 'https://gitlab.wikimedia.org/x/y', ref: 'main' }),
    ],
    ['builds.cancel', () => client.builds.cancel('mytool-buildpacks-pipelinerun-abcde')],
    ['builds.delete', () => client.builds.delete('mytool-buildpacks-pipelinerun-abcde')],
    ['builds.clean', () => client.builds.clean()],
    [
      'builds.logs follow',
      async () => {
        for await (const _ of client.builds.logs('mytool-buildpacks-pipelinerun-abcde', { follow: true }));
      },
    ],
    [
      'components.setConfig',
      () =>
        client.components.setConfig({
          config_version: 'v1beta1',
          components: { bot: { build: { reuse_from: 'web' }, run: { command: 'x', schedule: '@daily' } } },
        } as never),
    ],
    ['components.deployToken', () => client.components.getDeployToken()],
    ['components.latestDeployment', () => client.components.latestDeployment()],
    [
      'jobs.create',
      () =>
        client.jobs.create({
          name: 'bot',
          cmd: './run.sh',
          imagename: 'python3.11',
          job_type: 'one-off',
        } as never),
    ],
    ['jobs.restart', () => client.jobs.restart('bot')],
    ['jobs.flush', () => client.jobs.flush()],
    [
      'jobs.logs',
      async () => {
        for await (const _ of client.jobs.logs('bot', { lines: 10 } as never));
      },
    ],
    ['envvars.set', () => client.envvars.set('API_TOKEN', 'value')],
    ['envvars.delete', () => client.envvars.delete('API_TOKEN')],
  ];
  for (const [name, call] of calls) {
    try {
      const value = await call();
      out.push({ name, cards: [{ text: JSON.stringify(value ?? null) }] });
    } catch (error) {
      out.push({ name, cards: [], error: `${(error as Error).name}: ${(error as Error).message}` });
    }
  }
  return out;
}

function problems(results: Rendered[]): string[] {
  const found: string[] = [];
  for (const result of results) {
    if (result.error) found.push(`${result.name} failed: ${result.error}`);
    for (const card of result.cards) {
      const text = JSON.stringify(card);
      const bad = BAD_TEXT.exec(text);
      if (bad)
        found.push(
          `${result.name} rendered "${bad[0]}": ${text.slice(Math.max(0, bad.index - 120), bad.index + 60)}`,
        );
    }
  }
  return found;
}

const VARIANTS: [string, Variant | undefined][] = [['spec examples (mockResponseForOperation)', undefined]];
for (const minimal of [false, true]) {
  for (const oddStrings of [false, true]) {
    for (let pick = 0; pick < 7; pick++) {
      VARIANTS.push([
        `minimal=${minimal} oddStrings=${oddStrings} pick=${pick}`,
        { minimal, oddStrings, pick },
      ]);
    }
  }
}
// The case: `component_type: scheduled` on the continuous-shaped component (no `schedule`).
VARIANTS.push(['scheduled type on a continuous run', { pick: 1, branch: 0 }]);

describe('the tool-platform client against a mock served from the OpenAPI files', () => {
  it.each(VARIANTS)('requests validate and answers render: %s', async (_label, variant) => {
    mock.variant = variant;
    mock.violations.length = 0;
    mock.exchanges.length = 0;
    const results = await scenario();
    expect(mock.violations).toEqual([]);
    expect(problems(results)).toEqual([]);
    // Positive control: the scenario did reach every API and every operation it means to.
    const operations = new Set(mock.exchanges.map((e) => e.operationId));
    for (const id of [
      'logs',
      'get_tool_config',
      'generate_tool_config',
      'delete_tool_config',
      'get_logs',
      'list_tool_deployments',
      'create_tool_deployment',
      'list',
      'envvars_list',
    ]) {
      expect(operations, id).toContain(id);
    }
  });

  it('asks for the build log as text/plain, as builds-openapi.yaml `logs` declares', async () => {
    mock.variant = undefined;
    mock.exchanges.length = 0;
    mock.violations.length = 0;
    const result = await runCommand(buildLogsCommand, {
      tool: 'mytool',
      id: 'mytool-buildpacks-pipelinerun-abcde',
    });
    expect(result.error).toBeUndefined();
    const logs = mock.exchanges.find((e) => e.operationId === 'logs');
    expect(logs?.accept).toBe('text/plain');
    expect(logs?.status).toBe(200);
    expect(mock.violations).toEqual([]);
  });

  it('the mock is strict: a JSON-only Accept on the log stream is a 406 and a violation', async () => {
    mock.variant = undefined;
    mock.violations.length = 0;
    const response = await fetch(`${mock.url}/builds/v1/tool/mytool/builds/x/logs`, {
      headers: { accept: 'application/json' },
    });
    expect(response.status).toBe(406);
    expect(await response.text()).toBe('Unable to find content for application/json');
    expect(mock.violations).toHaveLength(1);
    mock.violations.length = 0;
  });

  it('a component typed scheduled whose run has no schedule is shown by /config show', async () => {
    mock.variant = undefined;
    mock.violations.length = 0;
    mock.overrides.set('get_tool_config', () => ({
      data: {
        config_version: 'v1beta1',
        components: {
          nightly: {
            component_type: 'scheduled',
            build: { repository: 'https://gitlab.wikimedia.org/a/b', ref: 'main' },
            run: { command: './nightly.sh' },
          },
        },
      },
      messages: { info: [], warning: [], error: [] },
    }));
    try {
      const result = await runCommand(configShowCommand, { tool: 'mytool' });
      expect(result.error).toBeUndefined();
      expect(result.cards[0]?.code?.text).toContain('component_type: scheduled');
      expect(result.cards[0]?.code?.text).toContain('./nightly.sh');
      expect(mock.violations).toEqual([]);
    } finally {
      mock.overrides.delete('get_tool_config');
    }
  });

  it('a build whose times are not dates shows no "Took NaNs"', async () => {
    mock.variant = undefined;
    mock.overrides.set('get', () => ({
      build: {
        build_id: 'mytool-buildpacks-pipelinerun-abcde',
        status: 'BUILD_SUCCESS',
        start_time: 'yesterday',
        end_time: 'soon',
      },
    }));
    try {
      const result = await runCommand(buildShowCommand, {
        tool: 'mytool',
        id: 'mytool-buildpacks-pipelinerun-abcde',
      });
      expect(result.error).toBeUndefined();
      const text = JSON.stringify(result.cards);
      expect(text).toContain('mytool-buildpacks-pipelinerun-abcde');
      expect(text).not.toMatch(/NaN|Took/);
      expect(mock.violations).toEqual([]);
    } finally {
      mock.overrides.delete('get');
    }
  });
});

/** The three calls `commands/toolhost/start-once.ts` makes, kept in a Map (no concurrency here). */
function memoryLocks() {
  const remembered = new Map<string, string>();
  return {
    withLock: async <T>(_resource: string, work: () => Promise<T>) => work(),
    remember: async (name: string, value: string) => {
      remembered.set(name, value);
    },
    recall: async (name: string) => remembered.get(name),
  };
}
