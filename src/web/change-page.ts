/**
 * `GET /changes/<id>`: the read-only page a Server Admin Log line links to — what was changed, by
 * whom, when and how it ended, from the change record kept when the line was queued (arguments as the
 * audit trail stored them, secrets masked). Nothing else of the record (conversation, user ids) is
 * shown; an unknown or expired id is a plain "not found".
 */
import type { RouteRegistrar } from '../core/host';
import type { AdminLogStore } from '../store/admin-log';
import { escapeHtml, p, pageHtml } from './pages/layout';
import { sendHtml } from './respond';

/** The path of change `id`'s page. */
export const CHANGE_PAGE_PATH = '/changes/';

/** Mounts the change pages. */
export function mountChangePages(web: RouteRegistrar, store: Pick<AdminLogStore, 'change'>): void {
  web.route('GET', `${CHANGE_PAGE_PATH}*`, async (req, res) => {
    const id = (req.url ?? '').slice(CHANGE_PAGE_PATH.length).split('?')[0] ?? '';
    const record = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await store.change(id) : undefined;
    if (!record) {
      sendHtml(
        res,
        404,
        pageHtml('Change not found', p('No change is kept under this address (they are kept 90 days).')),
      );
      return;
    }
    const args = Object.entries(record.args)
      .filter(([key]) => key !== 'tool')
      .map(
        ([key, value]) =>
          `<li>${escapeHtml(key)}: ${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</li>`,
      )
      .join('');
    const body = [
      p(`Tool: ${record.tool ?? ''}`),
      p(`Command: /${record.command}`),
      p(`By: ${record.name} (${record.platform})`),
      p(`At: ${new Date(record.at).toISOString()}`),
      p(`Outcome: ${record.outcome}`),
      args ? `<ul>${args}</ul>` : '',
    ].join('');
    sendHtml(res, 200, pageHtml(`Change to ${record.tool ?? 'a tool'}`, body));
  });
}
