/**
 * Reading a Slack slash command as a Deckhand command line. Deckhand's own command (`SLACK_COMMAND`,
 * `/deckhand`) takes the command as its first word: `/deckhand deploy mytool` is `/deploy mytool`,
 * `/deckhand` alone is `/help`. A per-group command (`SLACK_LEGACY_COMMANDS`) is read as typed.
 */
export function slashCommandLine(command: string, text: string, namespace: string): string {
  const rest = text.trim();
  if (command.toLowerCase() !== `/${namespace}`) return `${command} ${rest}`.trim();
  if (!rest) return '/help';
  // `/deckhand /deploy mytool` and `/deckhand deckhand deploy` mean the same as `/deckhand deploy`.
  const words = rest.replace(/^\/+/, '');
  const again = new RegExp(`^${namespace}(\\s+|$)`, 'i');
  const line = again.test(words) ? words.replace(again, '') : words;
  return `/${line || 'help'}`;
}
