/**
 * What an emulated job prints, derived from its command so that logs look like the real thing:
 * a web server prints access log lines, a batch job prints progress, a failing command a traceback.
 *
 * A command whose first word is `yes`, or that contains `spam`, prints {@link SPAM_LINES_PER_STEP}
 * lines per step while it runs: a fast producer for live-tail tests.
 */

/** Lines per step printed by `yes`/`spam` commands. */
export const SPAM_LINES_PER_STEP = 50;

/** Kinds of program the emulator can imitate. */
type Flavour = 'spam' | 'web' | 'batch';

const WEB_HINTS =
  /\b(web|app\.py|webservice|gunicorn|uwsgi|flask|uvicorn|server|serve|npm start|node|php|http)\b/;

function flavourOf(cmd: string, port: number | null | undefined): Flavour {
  if (/^\s*yes\b/.test(cmd) || cmd.includes('spam')) return 'spam';
  if (port || WEB_HINTS.test(cmd)) return 'web';
  return 'batch';
}

const PATHS = [
  '/',
  '/api/status',
  '/static/app.css',
  '/search?q=wiki',
  '/api/items/42',
  '/healthz',
  '/favicon.ico',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function accessLogTime(time: number): string {
  const d = new Date(time);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** Inputs of the output generator. */
export interface OutputContext {
  cmd: string;
  port?: number | null | undefined;
  /** Lines this pod printed so far (makes the output vary). */
  printed: number;
  /** Time the lines are stamped with. */
  time: number;
}

/** Lines printed when a container starts. */
export function startLines(o: OutputContext): string[] {
  switch (flavourOf(o.cmd, o.port)) {
    case 'spam':
      return [];
    case 'web': {
      const port = o.port ?? 8000;
      return [
        `Starting: ${o.cmd}`,
        ` * Serving app on 0.0.0.0:${port}`,
        ` * Running on http://0.0.0.0:${port} (Press CTRL+C to quit)`,
      ];
    }
    case 'batch':
      return [`Starting: ${o.cmd}`];
  }
}

/** Lines printed during one step of running. */
export function stepLines(o: OutputContext): string[] {
  const n = o.printed;
  switch (flavourOf(o.cmd, o.port)) {
    case 'spam': {
      const yes = /^\s*yes\b/.test(o.cmd);
      const word = yes ? o.cmd.trim().split(/\s+/).slice(1).join(' ') || 'y' : undefined;
      return Array.from({ length: SPAM_LINES_PER_STEP }, (_, i) => word ?? `spam line ${n + i + 1}`);
    }
    case 'web': {
      const path = PATHS[n % PATHS.length] as string;
      const status = path === '/favicon.ico' ? 404 : 200;
      const size = 200 + ((n * 7919) % 9000);
      return [
        `172.16.${n % 7}.${(n * 13) % 250} - - [${accessLogTime(o.time)}] "GET ${path} HTTP/1.1" ${status} ${size} "-" "Mozilla/5.0"`,
      ];
    }
    case 'batch':
      return [`processed batch ${n + 1} (${25 + ((n * 31) % 75)} items)`];
  }
}

/** Lines printed when the program ends, successfully or not. */
export function endLines(o: OutputContext, failed: boolean): string[] {
  if (!failed) return flavourOf(o.cmd, o.port) === 'spam' ? [] : ['Done.'];
  return [
    'Traceback (most recent call last):',
    '  File "/data/project/main.py", line 42, in <module>',
    '    main()',
    '  File "/data/project/main.py", line 37, in main',
    `    raise RuntimeError("command failed: ${o.cmd.replaceAll('"', "'")}")`,
    `RuntimeError: command failed: ${o.cmd}`,
  ];
}
