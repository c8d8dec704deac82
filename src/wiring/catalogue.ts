/** The command catalogue on its own (no Redis, no services): for manifests and registration. */
import { ALL_COMMANDS, type AppServices } from '../../commands';
import { CommandRegistry } from '../core/registry';

/** A registry of every command, for the manifest generators (`deckhand manifest`). */
export function commandRegistry(): CommandRegistry<AppServices> {
  return new CommandRegistry<AppServices>(ALL_COMMANDS);
}
