import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../commands';
import type { AnyCommand } from '../../src/core/command';

const commands = ALL_COMMANDS as AnyCommand[];
const named = (name: string) => commands.find((c) => c.name === name);

describe('which commands a lock or a freeze holds', () => {
  it('guards the deploy and every destructive or disruptive change of a tool, and nothing else', () => {
    expect(
      commands
        .filter((c) => c.guarded)
        .map((c) => c.name)
        .sort(),
    ).toEqual(
      [
        'build clean',
        'build delete',
        'config delete',
        'config set',
        'deploy',
        'deployment rollback',
        'deployment unpin',
        'deployment cancel',
        'deployment delete',
        'envvars delete',
        'jobs delete',
        'jobs flush',
        'jobs load',
        'jobs restart',
        'webservice restart',
        'webservice stop',
      ].sort(),
    );
  });

  it('every guarded command acts on a tool and changes something (so its refusal is audited)', () => {
    for (const command of commands.filter((c) => c.guarded)) {
      expect(command.sideEffect, command.name).toBe(true);
      expect(Object.keys(command.args.shape), command.name).toContain('tool');
    }
  });

  it('every state-changing tool command produces a change record (sideEffect), the lock commands too', () => {
    const changes = [
      'deploy',
      'deployment rollback',
      'deployment unpin',
      'deployment cancel',
      'deployment delete',
      'jobs run',
      'jobs update',
      'jobs delete',
      'jobs load',
      'jobs restart',
      'envvars set',
      'envvars delete',
      'config set',
      'config delete',
      'token create',
      'token refresh',
      'token delete',
      'webservice start',
      'webservice stop',
      'webservice restart',
      'tool lock',
      'tool unlock',
      'tool freeze',
      'tool unfreeze',
    ];
    for (const name of changes) expect(named(name)?.sideEffect, name).toBe(true);
    expect(named('tool freezes')?.sideEffect).toBe(false);
  });
});
