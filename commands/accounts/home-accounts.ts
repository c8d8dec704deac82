/** The linked-accounts part of `/me`: which services the person linked, never a value. */
import { translators } from '../../src/core/languages';
import type { HomeSection } from '../home';
import { linkedAccountField } from './whoami';

/** `Source host: octocat (scopes: repo), linked …`, `Deploy token of mytool: stored, …`, one line each. */
export const accountsHomeSection: HomeSection = async ({ entries, invocation }) => {
  // The view is private: in the reader's language.
  const say = translators(invocation).sayPrivately;
  return {
    title: say.t('accounts-home-title'),
    lines: entries.map((entry) => {
      const field = linkedAccountField(entry, say);
      return `${field.label}: ${field.value}`;
    }),
    empty: say.t('accounts-home-empty'),
  };
};
