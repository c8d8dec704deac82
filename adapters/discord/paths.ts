/** Where Discord posts interactions in HTTP mode (with `DISCORD_PUBLIC_KEY`), under `PUBLIC_URL`. */
export const INTERACTIONS_PATH = '/discord/interactions';
