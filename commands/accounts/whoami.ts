import type { CardField } from '../../src/core/reply';
import { type Translator, translator } from '../../src/i18n/translate';
import type { VaultEntry } from '../../src/store/vault';
import { formatUtc } from '../format';
import { command } from './context';

const ENGLISH = translator('en');

/** What one linked account or stored credential is (its service and account name, never its value). */
export function linkedAccountField(entry: VaultEntry, say: Translator): CardField {
  const when = say.t('account-linked-at', formatUtc(new Date(entry.storedAt)));
  if (entry.service === 'source') {
    const scopes = Array.isArray(entry.meta.scopes) ? entry.meta.scopes.join(', ') : '';
    return {
      label: say.t('account-source-host'),
      value: say.t(
        'account-source-value',
        String(entry.meta.login),
        scopes || say.t('account-scopes-none'),
        when,
      ),
    };
  }
  if (entry.service.startsWith('tool:'))
    return {
      label: say.t('account-deploy-token-of', entry.service.slice(5)),
      value: say.t('account-stored-at', when),
    };
  if (entry.service === 'calendar')
    return { label: say.t('account-calendar'), value: `${entry.meta.username}, ${when}` };
  return { label: say.t('secret-field-api-key'), value: say.t('account-stored-at', when) };
}

/** `/whoami`: who Deckhand thinks you are, your roles, and what you linked (never the values). */
export const whoamiCommand = command({
  name: 'whoami',
  permission: 'read',
  async run({ services, invocation, sayPrivately: say = ENGLISH }) {
    const { user } = invocation;
    const access = services.accounts.access;
    const entries = await services.accounts.vault.list(user);
    const roles: string[] = [];
    if (access.isAdmin(user)) roles.push(say.t('whoami-role-admin'));
    const tools = access.configuredTools(user);
    if (tools.length) roles.push(say.t('whoami-role-maintainer', tools.join(', ')));
    const fields: CardField[] = [
      { label: say.t('whoami-field-you'), value: `${user.name} (${user.platform}:${user.id})` },
      { label: say.t('whoami-field-roles'), value: roles.join('; ') || say.t('whoami-roles-none') },
      ...entries.map((entry) => linkedAccountField(entry, say)),
    ];
    const shared = services.accounts.credentials.sharedKinds();
    return {
      title: say.t('whoami-title'),
      text: entries.length ? say.t('whoami-linked') : say.t('whoami-nothing-linked'),
      fields,
      ...(shared.length ? { footer: say.t('whoami-shared', shared.join(', ')) } : {}),
      status: 'info',
      visibility: 'private',
    };
  },
});
