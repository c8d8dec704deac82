/** The read-only web view of a whole card: unguessable ids, every string inert, files and picture served. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardView, isCardViewId, keepCardView } from '../../src/core/card-view';
import { silentLogger } from '../../src/log';
import { mountCardViews } from '../../src/web/card-view-route';
import { WebServer } from '../../src/web/server';
import { memoryStore } from '../support/memory-store';

describe('card views', () => {
  const store = memoryStore();
  const web = new WebServer(silentLogger);
  let base: string;

  beforeAll(async () => {
    mountCardViews(web, store);
    base = `http://127.0.0.1:${await web.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await web.close();
  });

  it('keeps a card under an unguessable id and shows it whole, every string inert', async () => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & done';
    const id = await keepCardView(store, {
      title: `Build ${evil}`,
      text: `log\n${evil}`,
      fields: [{ label: 'commit', value: evil, url: 'javascript:alert(3)' }],
      attachments: [{ filename: 'log.txt', content: `whole log ${evil}` }],
      buttons: [{ label: 'Approve', actionId: 'a1' }],
    });
    expect(isCardViewId(id)).toBe(true);
    expect((await cardView(store, id))?.buttons).toBeUndefined();
    const response = await fetch(`${base}/cards/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    const file = await fetch(`${base}/cards/${id}/files/0`);
    expect(file.headers.get('content-type')).toContain('text/plain');
    expect(await file.text()).toBe(`whole log ${evil}`);
  });

  it('serves the card’s picture as PNG', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const id = await keepCardView(store, {
      text: 'chart',
      image: { pngBase64: png.toString('base64'), filename: 'chart.png', alt: 'a chart' },
    });
    const picture = await fetch(`${base}/cards/${id}/picture.png`);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(png);
  });

  it('answers an unknown or malformed id with a plain not-found page', async () => {
    for (const path of ['/cards/AAAAAAAAAAAAAAAAAAAAAA', '/cards/..%2F..%2Fetc', '/cards/x/files/9']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('does not exist or has expired');
    }
  });
});
