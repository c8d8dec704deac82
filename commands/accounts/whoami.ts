import type { CardField } from '../../src/core/reply';
import type { VaultEntry } from '../../src/store/vault';
import { formatUtc } from '../format';
import { command } from './context';

/** What one linked account or stored credential is (its service and account name, never its value). */
export function linkedAccountField(entry: VaultEntry): CardField {
  const when = `linked ${formatUtc(new Date(entry.storedAt))}`;
  if (entry.service === 'source') {
    const scopes = Array.isArray(entry.meta.scopes) ? entry.meta.scopes.join(', ') : '';
    return { label: 'Source host', value: `${entry.meta.login} (scopes: ${scopes || 'none'}), ${when}` };
  }
  if (entry.service.startsWith('tool:'))
    return { label: `Deploy token of ${entry.service.slice(5)}`, value: `stored, ${when}` };
  if (entry.service === 'calendar') return { label: 'Calendar', value: `${entry.meta.username}, ${when}` };
  return { label: 'Media API key', value: `stored, ${when}` };
}

/** `/whoami`: who Deckhand thinks you are, your roles, and what you linked (never the values). */
export const whoamiCommand = command({
  name: 'whoami',
  permission: 'read',
  async run({ services, invocation }) {
    const { user } = invocation;
    const access = services.accounts.access;
    const entries = await services.accounts.vault.list(user);
    const roles: string[] = [];
    if (access.isAdmin(user)) roles.push('admin');
    const tools = access.configuredTools(user);
    if (tools.length) roles.push(`maintainer of ${tools.join(', ')} (configured)`);
    const fields: CardField[] = [
      { label: 'You', value: `${user.name} (${user.platform}:${user.id})` },
      {
        label: 'Roles',
        value:
          roles.join('; ') ||
          'none configured (maintainers are also those with push access through a linked account)',
      },
      ...entries.map(linkedAccountField),
    ];
    const shared = services.accounts.credentials.sharedKinds();
    return {
      title: 'Who you are to Deckhand',
      text: entries.length
        ? 'Linked accounts and stored credentials:'
        : 'Nothing linked yet: /link source, /link tool <tool>, /link media, /link calendar.',
      fields,
      ...(shared.length ? { footer: `Shared accounts configured for everyone: ${shared.join(', ')}.` } : {}),
      status: 'info',
      visibility: 'private',
    };
  },
});
