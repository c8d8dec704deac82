import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { bearerMatches, MetricsEndpoint } from '../../src/web/metrics-endpoint';
import { WebServer } from '../../src/web/server';

const TOKEN = 'metrics-token-0123456789abcdef';
const servers: WebServer[] = [];

/** A web server with `/metrics` as `settings` say; resolves with its base URL. */
async function serve(settings: { port?: number; token?: string }): Promise<{ base: string; web: WebServer }> {
  const web = new WebServer(silentLogger);
  servers.push(web);
  web.serveMetrics(new MetricsEndpoint({ host: '127.0.0.1', ...settings }, silentLogger));
  const port = await web.listen(0, '127.0.0.1');
  return { base: `http://127.0.0.1:${port}`, web };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((web) => web.close()));
});

/** A free port on 127.0.0.1 (bound and released). */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('where /metrics is served', () => {
  it('nowhere with neither METRICS_PORT nor METRICS_TOKEN: the public port answers 404', async () => {
    const { base } = await serve({});
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    // The same server does answer on a route it has (the 404 is about /metrics, not a dead server).
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('with METRICS_TOKEN only: on the public port, to a request bearing the token and no other', async () => {
    const { base } = await serve({ token: TOKEN });
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect(await none.text()).not.toContain('deckhand_');
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toContain('text/plain');
    expect(await right.text()).toContain('deckhand_commands_total');
  });

  it('with METRICS_PORT: on that port only (the public port answers 404), closed with the server', async () => {
    const port = await freePort();
    const { base, web } = await serve({ port });
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('deckhand_build_info');
    // Nothing else is served there.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    await web.close();
    servers.splice(servers.indexOf(web), 1);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('with both: the separate port asks for the token too', async () => {
    const port = await freePort();
    await serve({ port, token: TOKEN });
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    const right = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status).toBe(200);
  });

  it('reads the settings from METRICS_PORT, METRICS_HOST (default 127.0.0.1) and METRICS_TOKEN', () => {
    const config = loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN });
    expect([config.METRICS_PORT, config.METRICS_HOST, config.METRICS_TOKEN]).toEqual([
      9464,
      '127.0.0.1',
      TOKEN,
    ]);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN.*at least 16/s);
  });

  it('compares bearer tokens exactly', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});

describe('what /metrics says', () => {
  it("Node's default metrics under their standard names, build_info with the version, the command and ack histograms", async () => {
    const { base } = await serve({ token: TOKEN });
    const text = await (
      await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).text();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(text).not.toMatch(/^deckhand_(process|nodejs)_/m);
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(text).toContain(`deckhand_build_info{version="${version}",node="${process.version}"} 1`);
    for (const name of [
      'deckhand_command_duration_seconds',
      'deckhand_ack_duration_seconds',
      'deckhand_chat_api_calls_total',
      'deckhand_chat_api_errors_total',
      'deckhand_chat_api_rate_limited_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});
