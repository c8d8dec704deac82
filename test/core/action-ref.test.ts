import { describe, expect, it } from 'vitest';
import { ALL_COMMANDS } from '../../commands';
import { deploymentCancelCommand } from '../../commands/toolhost/deployment';
import { actionTo, commandRef, formTarget } from '../../src/core/action-ref';

describe('typed action references', () => {
  it('a button names its command by definition and carries checked arguments', () => {
    const action = actionTo(deploymentCancelCommand, { tool: 'mytool', id: 'latest' }, { label: 'Cancel' });
    expect(action).toEqual({
      label: 'Cancel',
      command: 'deployment cancel',
      args: { tool: 'mytool', id: 'latest' },
    });
    // The name it carries is one the registry dispatches.
    expect(ALL_COMMANDS.map((command) => command.name)).toContain(action.command);
    expect(deploymentCancelCommand.args.safeParse(action.args).success).toBe(true);
  });

  it('wrong or missing arguments fail the type check (tsc runs over this file)', () => {
    // @ts-expect-error: `tool` is required by the command's schema
    const missing = actionTo(deploymentCancelCommand, { id: 'latest' }, { label: 'Cancel' });
    // @ts-expect-error: the command has no `force` argument
    const unknown = commandRef(deploymentCancelCommand, { tool: 'mytool', force: true });
    // A form may leave out what its fields supply, but not name an argument the command lacks.
    const partial = formTarget(deploymentCancelCommand, { tool: 'mytool' });
    // @ts-expect-error: the command has no `title` argument
    formTarget(deploymentCancelCommand, { title: 'x' });
    // Positive control: what tsc refuses is also what the schema refuses at run time.
    expect(deploymentCancelCommand.args.safeParse(missing.args).success).toBe(false);
    expect(unknown.args).toEqual({ tool: 'mytool', force: true });
    expect(partial).toEqual({ command: 'deployment cancel', args: { tool: 'mytool' } });
  });
});
