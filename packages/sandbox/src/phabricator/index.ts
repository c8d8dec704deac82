/**
 * A Phabricator emulator for one Conduit method, `maniphest.search`, as Phabricator documents it
 * ("Conduit API: Using Search Endpoints"): `POST /api/maniphest.search` with form parameters
 * (`api.token`, `constraints[ids][0]=123`, `limit`), or one JSON `params` value; the answer is
 * `{result: {data: [{id, type: 'TASK', phid, fields: {name, status, priority, …}}], cursor, …},
 * error_code, error_info}`, and an error is `result: null` with a code such as `ERR-INVALID-AUTH`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';

/** A task as the emulator keeps it. */
export interface EmulatedTask {
  id: number;
  name: string;
  status: 'open' | 'resolved' | 'invalid' | 'declined' | 'stalled' | 'progress';
  /** Only a holder of the token sees it (a task in a private space). */
  private?: boolean;
}

/** A running Phabricator emulator. */
export interface PhabricatorSandbox {
  url: string;
  /** The one API token it accepts (Conduit tokens are `api-` and 28 characters). */
  token: string;
  tasks: Map<number, EmulatedTask>;
  /** Every `maniphest.search` call's parameters, in order. */
  calls: Record<string, unknown>[];
  close(): Promise<void>;
}

const STATUS_NAMES: Record<EmulatedTask['status'], string> = {
  open: 'Open',
  resolved: 'Resolved',
  invalid: 'Invalid',
  declined: 'Declined',
  stalled: 'Stalled',
  progress: 'In Progress',
};

/** The seed tasks. */
export const SANDBOX_TASKS: readonly EmulatedTask[] = [
  { id: 123, name: 'Deploy the new webservice of mytool', status: 'open' },
  { id: 4567, name: 'mytool: <b>escape</b> me @everyone', status: 'resolved' },
  { id: 999, name: 'Security issue', status: 'open', private: true },
];

/** Reads PHP-style form parameters (`constraints[ids][0]=1`) or a JSON `params` into one object. */
function readParams(form: Record<string, string>): Record<string, unknown> {
  if (typeof form.params === 'string') return JSON.parse(form.params) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const path = key.split(/[[\]]+/).filter(Boolean);
    let node = out as Record<string, unknown>;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

function taskData(task: EmulatedTask) {
  return {
    id: task.id,
    type: 'TASK',
    phid: `PHID-TASK-${String(task.id).padStart(20, 'x')}`,
    fields: {
      name: task.name,
      description: { raw: '' },
      status: { value: task.status, name: STATUS_NAMES[task.status], color: null },
      priority: { value: 50, subpriority: 0, name: 'Medium', color: 'orange' },
      points: null,
      subtype: 'default',
      spacePHID: null,
      dateCreated: 1_700_000_000,
      dateModified: 1_700_000_000,
      policy: { view: task.private ? 'PHID-PROJ-private' : 'public', interact: 'users', edit: 'users' },
    },
    attachments: {},
  };
}

/** Starts the emulator on a free port of `host`. */
export async function startPhabricatorSandbox(options: { host?: string } = {}): Promise<PhabricatorSandbox> {
  const token = 'api-sandboxsandboxsandboxsandbox0';
  const tasks = new Map(SANDBOX_TASKS.map((task) => [task.id, { ...task }]));
  const calls: Record<string, unknown>[] = [];
  const app = new Hono();
  app.post('/api/maniphest.search', async (c) => {
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
    let params: Record<string, unknown>;
    try {
      params = readParams(form);
    } catch {
      return c.json({ result: null, error_code: 'ERR-CONDUIT-CORE', error_info: 'Invalid JSON in params.' });
    }
    calls.push(params);
    const given = (params['api.token'] ?? form['api.token']) as string | undefined;
    if (given !== undefined && given !== token) {
      return c.json({ result: null, error_code: 'ERR-INVALID-AUTH', error_info: 'API token is invalid.' });
    }
    const constraints = (params.constraints ?? {}) as { ids?: unknown };
    const ids = Object.values((constraints.ids ?? {}) as Record<string, unknown>).map(Number);
    const data = [...tasks.values()]
      .filter((task) => ids.length === 0 || ids.includes(task.id))
      .filter((task) => !task.private || given === token)
      .map(taskData);
    return c.json({
      result: {
        data,
        maps: {},
        query: { queryKey: null },
        cursor: { limit: 100, after: null, before: null, order: null },
      },
      error_code: null,
      error_info: null,
    });
  });
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as unknown as Server;
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    token,
    tasks,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
