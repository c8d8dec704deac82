/**
 * `GET /cards/<id>` (and `/cards/<id>/picture.png`, `/cards/<id>/files/<n>`): the read-only view of a
 * whole card kept by an adapter that shows only a summary in the chat (src/core/card-view.ts).
 */
import { CARD_VIEW_PATH, cardView } from '../core/card-view';
import type { KeyValueStore, RouteRegistrar } from '../core/host';
import { cardGonePage, cardPage } from './pages/card';
import { sendHtml } from './respond';

/** Mounts the card views, read from `store` (the sealed card-view namespace). */
export function mountCardViews(web: RouteRegistrar, store: KeyValueStore): void {
  web.route('GET', `${CARD_VIEW_PATH}*`, async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.slice(CARD_VIEW_PATH.length);
    const [id = '', part, index] = path.split('/');
    const card = await cardView(store, id);
    if (!card) return sendHtml(res, 404, cardGonePage());
    if (part === undefined) return sendHtml(res, 200, cardPage(card, `${CARD_VIEW_PATH}${id}`));
    const headers = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
    if (part === 'picture.png' && card.image?.pngBase64) {
      res.writeHead(200, { ...headers, 'content-type': 'image/png' });
      res.end(Buffer.from(card.image.pngBase64, 'base64'));
      return;
    }
    const file = part === 'files' ? card.attachments?.[Number(index)] : undefined;
    if (!file) return sendHtml(res, 404, cardGonePage());
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
    });
    res.end(file.content);
  });
}
