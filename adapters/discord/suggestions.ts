/**
 * Discord's rendering of the core's autocomplete values (`src/core/suggestions.ts`): at most 25
 * choices, each name at most 100 characters (specs/platforms/discord-openapi.json,
 * `ApplicationCommandOptionStringChoice.name` maxLength 100); values are cut to 100 as well, so a
 * choice always shows the whole value it fills in.
 */
/** One autocomplete choice. */
export interface Choice {
  name: string;
  value: string;
}

/** Discord allows at most 25 choices. */
const MAX_CHOICES = 25;

/** The first 25 values as Discord choices, cut to 100 characters. */
export function choicesOf(values: readonly string[]): Choice[] {
  return values
    .slice(0, MAX_CHOICES)
    .map((value) => ({ name: value.slice(0, 100), value: value.slice(0, 100) }));
}
