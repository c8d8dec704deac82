/**
 * Typed references from buttons to commands: `actionTo(deploymentCancelCommand, { tool, id }, { label })`.
 * The command is named by its definition, not by a string, and the arguments are checked against its
 * schema's input type, so a removed or renamed command, or a wrong argument, fails `tsc` instead of a
 * click ("This button belongs to a command that no longer exists").
 */
import type { z } from 'zod';
import type { CommandDefinition } from './command';
import type { ActionRequest } from './reply';

/** How the button looks and lives (everything of an {@link ActionRequest} but what it runs). */
export type ButtonOptions = Omit<ActionRequest, 'command' | 'args'>;

/** A button that runs `command` with `args` (checked against the command's argument schema). */
export function actionTo<Schema extends z.ZodObject, S>(
  command: Pick<CommandDefinition<Schema, S>, 'name' | 'args'>,
  args: z.input<Schema>,
  button: ButtonOptions,
): ActionRequest {
  return { ...button, command: command.name, args: args as Record<string, unknown> };
}

/** A command with its arguments, as a replay (run again once the user is linked) carries it. */
export interface CommandRef {
  command: string;
  args: Record<string, unknown>;
}

/** `command` with `args` (checked against its schema), for a replay. */
export function commandRef<Schema extends z.ZodObject, S>(
  command: Pick<CommandDefinition<Schema, S>, 'name' | 'args'>,
  args: z.input<Schema>,
): CommandRef {
  return { command: command.name, args: args as Record<string, unknown> };
}

/**
 * The command a form submits to, with the arguments it already knows (the form's fields give the
 * rest, so these are checked as a part of the command's input).
 */
export function formTarget<Schema extends z.ZodObject, S>(
  command: Pick<CommandDefinition<Schema, S>, 'name' | 'args'>,
  args: Partial<z.input<Schema>>,
): CommandRef {
  return { command: command.name, args: args as Record<string, unknown> };
}
