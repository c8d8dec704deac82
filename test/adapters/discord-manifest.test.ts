import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discordManifest, registerDiscordCommands } from '../../adapters/discord/load';
import { commandRoutes } from '../../adapters/discord/manifest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { commandRegistry } from '../../src/wiring';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord';
import { validateDiscordRequest } from '../fakes/discord/spec';
import { snowflake } from '../fakes/discord/store';
import { useStarted } from '../support/started';

const ROOT = join(import.meta.dirname, '..', '..');
const NAME = /^[-_\p{L}\p{N}]{1,32}$/u;

interface Option {
  type: number;
  name: string;
  description: string;
  required?: boolean;
  choices?: { name: string; value: string }[];
  options?: Option[];
}
interface Command {
  name: string;
  description: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: Option[];
}

function build(): Command[] {
  return discordManifest?.build(commandRegistry(), loadConfig({})) as Command[];
}

/** The longest of a field and its localizations: what Discord counts of it. */
function longest(text: string, localized: Record<string, string | null> | null | undefined): number {
  return Math.max(text.length, ...Object.values(localized ?? {}).map((t) => t?.length ?? 0));
}

/**
 * Characters Discord counts toward a command's 4,000-character limit: of each name and description,
 * its longest localization.
 */
function size(node: {
  name: string;
  description: string;
  name_localizations?: Record<string, string | null> | null;
  description_localizations?: Record<string, string | null> | null;
  options?: Option[];
  choices?: { name: string; value: string }[];
}): number {
  return (
    longest(node.name, node.name_localizations) +
    longest(node.description, node.description_localizations) +
    (node.choices ?? []).reduce((n, c) => n + c.name.length + c.value.length, 0) +
    (node.options ?? []).reduce((n, o) => n + size(o), 0)
  );
}

function* walk(options: Option[] | undefined): Generator<Option[]> {
  if (!options) return;
  yield options;
  for (const option of options) if (option.type === 1 || option.type === 2) yield* walk(option.options);
}

let fake: FakeDiscord;
useStarted(startFakeDiscord, (started) => {
  fake = started;
});

describe('Discord application commands', () => {
  it('manifest/discord-commands.json is up to date with the command registry', () => {
    const file = join(ROOT, 'manifest', discordManifest?.file ?? 'discord-commands.json');
    const checkedIn = JSON.parse(readFileSync(file, 'utf8'));
    expect(checkedIn, 'manifest/discord-commands.json is stale: run `npx deckhand manifest discord`').toEqual(
      build(),
    );
  });

  it('describes every command in German too, within 100 characters; names stay English', () => {
    for (const command of build()) {
      const german = command.description_localizations?.de;
      expect(german, `/${command.name} has no German description`).toBeTruthy();
      expect((german as string).length).toBeLessThanOrEqual(100);
      expect(command.name_localizations ?? undefined).toBeUndefined();
    }
  });

  it('counts the longest localization of a field toward the limit (positive control)', () => {
    const plain = { name: 'jobs', description: 'x'.repeat(10) };
    expect(size({ ...plain, description_localizations: { de: 'y'.repeat(90) } })).toBe(4 + 90);
    expect(size(plain)).toBe(4 + 10);
  });

  it('covers every registry command, within Discord limits, each accepted by the API description', async () => {
    const commands = build();
    const routes = commandRoutes(commandRegistry());
    const names = new Set<string>();
    for (const command of commands) {
      expect(command.name).toMatch(NAME);
      expect(size(command), `/${command.name} is over 4,000 characters in some language`).toBeLessThanOrEqual(
        4000,
      );
      for (const options of walk(command.options)) {
        expect(options.length).toBeLessThanOrEqual(25);
        const required = options.map((o) => o.required === true);
        expect(required, `required options first in /${command.name}`).toEqual(
          [...required].sort((a, b) => Number(b) - Number(a)),
        );
        for (const option of options) {
          expect(option.name).toMatch(NAME);
          expect(option.name).toBe(option.name.toLowerCase());
          expect(option.description.length).toBeGreaterThan(0);
          expect(option.description.length).toBeLessThanOrEqual(100);
        }
      }
      const subcommands = (command.options ?? []).filter((o) => o.type === 1);
      const groups = (command.options ?? []).filter((o) => o.type === 2);
      if (subcommands.length === 0 && groups.length === 0) names.add(command.name);
      for (const sub of subcommands) names.add(`${command.name} ${sub.name}`);
      for (const group of groups) {
        for (const sub of group.options ?? []) names.add(`${command.name} ${group.name} ${sub.name}`);
      }
    }
    expect([...names].sort()).toEqual([...routes.keys()].sort());
    expect(commands.length).toBeLessThanOrEqual(100);
    const violations = await validateDiscordRequest({
      method: 'PUT',
      path: `/api/v10/applications/${snowflake()}/commands`,
      query: {},
      headers: {},
      body: commands,
    });
    expect(violations).toEqual([]);
  });

  it('types options from the argument schemas: booleans, integers, choices, autocomplete', () => {
    const commands = build();
    const jobsRun = commands.find((c) => c.name === 'jobs')?.options?.find((o) => o.name === 'run');
    const byName = Object.fromEntries((jobsRun?.options ?? []).map((o) => [o.name, o]));
    expect(byName.continuous).toMatchObject({ type: 5, required: false });
    expect(byName.replicas).toMatchObject({ type: 4 });
    expect(byName.mount?.choices?.map((c) => c.value)).toEqual(['all', 'none']);
    expect(byName.name).toMatchObject({ type: 3, required: true });
    expect(byName.tool).toMatchObject({ type: 3, required: false, autocomplete: true });
    const deploy = commands.find((c) => c.name === 'deploy');
    expect(deploy?.options?.map((o) => o.name)).toEqual([
      'tool',
      'force-build',
      'force-run',
      'description',
      'override',
    ]);
    const logs = commands.find((c) => c.name === 'logs');
    expect(logs?.options?.map((o) => o.name)).not.toContain('cursor');
  });

  it('`deckhand register discord --guild ID` bulk-overwrites the guild commands', async () => {
    const guild = snowflake();
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'bin', 'deckhand.mjs'), 'register', 'discord', '--guild', guild],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DISCORD_TOKEN: fake.token,
            DISCORD_APPLICATION_ID: fake.identity.applicationId,
            DISCORD_API_URL: fake.apiUrl,
            LOG_LEVEL: 'silent',
          },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const commands = build();
    expect(run.stdout).toContain(
      `Registered ${commands.length} Discord commands in guild ${guild}: /deploy,`,
    );
    const put = fake.requestsTo('PUT', /\/guilds\/\d+\/commands$/);
    expect(put).toHaveLength(1);
    expect(put[0]?.path).toBe(`/applications/${fake.identity.applicationId}/guilds/${guild}/commands`);
    expect(put[0]?.body).toEqual(commands);
    expect(fake.registered.get(guild)?.map((c) => c.name)).toEqual(commands.map((c) => c.name));
    expect(fake.violations).toEqual([]);
  }, 30_000);

  it('registers globally without --guild', async () => {
    const config = loadConfig({
      DISCORD_TOKEN: fake.token,
      DISCORD_APPLICATION_ID: fake.identity.applicationId,
      DISCORD_API_URL: fake.apiUrl,
    });
    const summary = await registerDiscordCommands?.(commandRegistry(), config, { logger: silentLogger });
    expect(summary).toMatch(/^Registered \d+ Discord commands globally: \/deploy, /);
    expect(
      fake.requestsTo('PUT', new RegExp(`^/applications/${fake.identity.applicationId}/commands$`)),
    ).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  });
});
