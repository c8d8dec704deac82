/** The linked-accounts part of `/me`: which services the person linked, never a value. */
import type { HomeSection } from '../home';
import { linkedAccountField } from './whoami';

/** `Source host: octocat (scopes: repo), linked …`, `Deploy token of mytool: stored, …`, one line each. */
export const accountsHomeSection: HomeSection = async ({ entries, say }) => {
  return {
    title: say.t('accounts-home-title'),
    lines: entries.map((entry) => {
      const field = linkedAccountField(entry, say);
      return `${field.label}: ${field.value}`;
    }),
    empty: say.t('accounts-home-empty'),
  };
};
