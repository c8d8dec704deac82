import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { KeyValueStore } from '../../src/core/host';

/**
 * Bolt's installation store: one record per workspace (or per org for org-wide installs), in the
 * host's sealed `slack:installation` namespace, since it holds bot tokens.
 */
export class SlackInstallationStore implements InstallationStore {
  /** `records` must be a sealed namespace. */
  constructor(private readonly records: KeyValueStore) {}

  async storeInstallation<AuthVersion extends 'v1' | 'v2'>(
    installation: Installation<AuthVersion, boolean>,
  ): Promise<void> {
    const id =
      installation.isEnterpriseInstall && installation.enterprise
        ? `E:${installation.enterprise.id}`
        : `T:${installation.team?.id}`;
    await this.records.set(id, JSON.stringify(installation));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<'v1' | 'v2', boolean>> {
    for (const id of this.ids(query)) {
      const record = await this.records.get(id);
      if (record) return JSON.parse(record) as Installation<'v1' | 'v2', boolean>;
    }
    throw new Error(`Deckhand is not installed in Slack workspace ${query.teamId ?? query.enterpriseId}`);
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    for (const id of this.ids(query)) await this.records.delete(id);
  }

  private ids(query: InstallationQuery<boolean>): string[] {
    const ids: string[] = [];
    if (query.isEnterpriseInstall && query.enterpriseId) ids.push(`E:${query.enterpriseId}`);
    if (query.teamId) ids.push(`T:${query.teamId}`);
    if (!query.isEnterpriseInstall && query.enterpriseId) ids.push(`E:${query.enterpriseId}`);
    return ids;
  }
}
