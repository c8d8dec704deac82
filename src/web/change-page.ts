/**
 * `GET /changes/<id>`: the read-only page a Server Admin Log line links to — what was changed, by
 * whom, when and how it ended, from the change record kept when the line was queued (arguments as the
 * audit trail stored them, secrets masked). Nothing else of the record (conversation, user ids) is
 * shown; an unknown or expired id is a plain "not found".
 */
import type { RouteRegistrar } from '../core/host';
import type { AdminLogStore } from '../store/admin-log';
import { escapeHtml, p, pageHtml } from './pages/layout';
import { readerOf } from './reader';
import { sendHtml } from './respond';

/** The path of change `id`'s page. */
export const CHANGE_PAGE_PATH = '/changes/';

/** Mounts the change pages. */
export function mountChangePages(web: RouteRegistrar, store: Pick<AdminLogStore, 'change'>): void {
  web.route('GET', `${CHANGE_PAGE_PATH}*`, async (req, res) => {
    const id = (req.url ?? '').slice(CHANGE_PAGE_PATH.length).split('?')[0] ?? '';
    const record = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await store.change(id) : undefined;
    const say = readerOf(req);
    if (!record) {
      sendHtml(res, 404, pageHtml(say.t('change-page-gone-title'), p(say.t('change-page-gone-text')), say));
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
      p(say.t('change-page-tool', record.tool ?? '')),
      p(say.t('change-page-command', `/${record.command}`)),
      p(say.t('change-page-by', record.name, record.platform)),
      p(say.t('change-page-at', new Date(record.at).toISOString())),
      p(say.t('change-page-outcome', record.outcome)),
      args ? `<ul>${args}</ul>` : '',
    ].join('');
    const tool = record.tool ?? say.t('change-page-some-tool');
    sendHtml(res, 200, pageHtml(say.t('change-page-title', tool), body, say));
  });
}
