/** The linked-accounts part of `/me`: which services the person linked, never a value. */
import type { HomeSection } from '../home';
import { linkedAccountField } from './whoami';

/** `Source host: octocat (scopes: repo), linked …`, `Deploy token of mytool: stored, …`, one line each. */
export const accountsHomeSection: HomeSection = async ({ entries }) => ({
  title: 'Linked accounts',
  lines: entries.map((entry) => {
    const field = linkedAccountField(entry);
    return `${field.label}: ${field.value}`;
  }),
  empty: 'nothing linked: /link source, /link tool <tool>, /link media, /link calendar',
});
