/**
 * The account routes of Deckhand's web server:
 * - `GET|POST /oauth/source/start/<state>`: the link handed out in the chat: a confirmation page
 *   naming who asked for the link, then (confirmed) the browser bound and sent to the source host;
 * - `GET /oauth/source/callback`: the OAuth callback (only in the bound browser) and its result pages;
 * - `GET|POST /secrets/<id>`: the one-time secret entry form;
 * - `POST /webhooks/source`: source-host webhooks, `X-Hub-Signature-256` checked with
 *   `SOURCEHOST_WEBHOOK_SECRET`; `repository_import` is announced to the conversations following the
 *   repository once: deliveries are deduplicated on the SHA-256 of the event name and the signed
 *   body, because `X-GitHub-Delivery` is not covered by the signature (a captured delivery sent
 *   again with a fresh id must not be announced again). A real `repository_import` payload carries
 *   the repository's `updated_at`/`pushed_at`, so two different imports do not share a body.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { DraftCard } from '../core/reply';
import { type Translator, translator } from '../i18n/translate';
import { RepositoryImportEventSchema, verifyWebhook } from '../services/sourcehost';
import type { ImportFollowers } from '../store/links-imports';
import { browserCookieName, type LinkChat, OAUTH_CALLBACK_PATH, type SourceLinker } from './oauth-flow';
import { mountStartRoutes } from './oauth-start';
import { oauthResultPage } from './pages/oauth';
import {
  secretExpiredPage,
  secretForbiddenPage,
  secretFormPage,
  secretSavedPage,
  secretUnreadablePage,
} from './pages/secret';
import { readerOf } from './reader';
import { cookie, originOf, readBody } from './request';
import { sendHtml, sendJson } from './respond';
import { SECRET_FORM_PATH, type SecretFormChat, type SecretForms } from './secret-flow';
import { secretPageFields, secretPageIntro, secretPageTitle } from './secret-page-words';
import type { WebServer } from './server';

/** Path of the source-host webhook. */
export const SOURCE_WEBHOOK_PATH = '/webhooks/source';

/** What the account routes need. */
export interface AccountRoutesDeps {
  linker: SourceLinker;
  secretForms: SecretForms;
  followers: ImportFollowers;
  /** The webhook secret; without one every delivery is refused. */
  webhookSecret: string | undefined;
  /** Where outcomes are told (links, stored credentials, imports) and waiting commands run again. */
  chat: LinkChat & SecretFormChat;
  logger: Logger;
}

/** Mounts the account routes on the web server. */
export function mountAccountRoutes(web: WebServer, deps: AccountRoutesDeps): void {
  mountStartRoutes(web, deps.linker);

  web.route('GET', OAUTH_CALLBACK_PATH, async (req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const state = query.get('state') ?? '';
    const reader = readerOf(req);
    const outcome = await deps.linker.complete(
      query,
      cookie(req, browserCookieName(state)),
      deps.chat,
      reader,
    );
    const page = oauthResultPage(outcome, reader);
    sendHtml(res, page.status, page.html, { 'set-cookie': deps.linker.clearCookie(state) });
  });

  web.route('GET', `${SECRET_FORM_PATH}*`, async (req, res) => {
    const say = readerOf(req);
    const id = new URL(req.url ?? '/', 'http://localhost').pathname.slice(SECRET_FORM_PATH.length);
    const session = await deps.secretForms.load(id);
    if (session === 'unreadable') return sendHtml(res, 410, secretUnreadablePage(say));
    if (!session) return sendHtml(res, 404, secretExpiredPage(say));
    sendHtml(
      res,
      200,
      secretFormPage(
        {
          title: secretPageTitle(session.kind, say),
          intro: secretPageIntro(session, say),
          fields: secretPageFields(session.kind, say),
          csrf: session.csrf,
        },
        say,
      ),
      {
        'set-cookie': `dh_csrf=${encodeURIComponent(session.csrf)}; Path=${SECRET_FORM_PATH}${id}; HttpOnly; SameSite=Strict; Max-Age=600`,
      },
    );
  });

  web.route('POST', `${SECRET_FORM_PATH}*`, async (req, res) => {
    const say = readerOf(req);
    const id = new URL(req.url ?? '/', 'http://localhost').pathname.slice(SECRET_FORM_PATH.length);
    const body = await readBody(req);
    if (!body) return sendHtml(res, 413, secretForbiddenPage(say));
    const fields = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    const origin = originOf(req);
    const outcome = await deps.secretForms.submit(
      id,
      fields,
      { cookie: cookie(req, 'dh_csrf'), origin },
      deps.chat,
      say,
    );
    switch (outcome.kind) {
      case 'saved':
        return sendHtml(res, 200, secretSavedPage(outcome.what, say), {
          'set-cookie': `dh_csrf=; Path=${SECRET_FORM_PATH}${id}; Max-Age=0`,
        });
      case 'expired':
        return sendHtml(res, 404, secretExpiredPage(say));
      case 'unreadable':
        return sendHtml(res, 410, secretUnreadablePage(say));
      case 'forbidden':
        return sendHtml(res, 403, secretForbiddenPage(say));
      case 'invalid':
        return sendHtml(
          res,
          422,
          secretFormPage(
            {
              title: secretPageTitle(outcome.session.kind, say),
              intro: say.t(outcome.outage ? 'secret-page-outage' : 'secret-page-correct'),
              fields: secretPageFields(outcome.session.kind, say),
              csrf: outcome.session.csrf,
              problem: outcome.message,
              keep: { username: fields.username ?? '' },
            },
            say,
          ),
        );
    }
  });

  web.route('POST', SOURCE_WEBHOOK_PATH, async (req, res) => {
    const body = await readBody(req);
    if (!body) return sendJson(res, 413, { error: 'body too large' });
    const signature = req.headers['x-hub-signature-256'];
    if (
      !deps.webhookSecret ||
      !verifyWebhook(deps.webhookSecret, body, typeof signature === 'string' ? signature : undefined)
    ) {
      deps.logger.warn(
        { delivery: req.headers['x-github-delivery'] },
        'source webhook with a bad signature refused',
      );
      return sendJson(res, 401, { error: 'bad signature' });
    }
    const event = req.headers['x-github-event'];
    if (event === 'ping') return sendJson(res, 200, { ok: true });
    if (event !== 'repository_import') return sendJson(res, 202, { ignored: event });
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: 'body is not JSON' });
    }
    const parsed = RepositoryImportEventSchema.safeParse(payload);
    if (!parsed.success) return sendJson(res, 400, { error: 'not a repository_import payload' });
    if (!(await deps.followers.claimDelivery(deliveryDigest(event, body)))) {
      deps.logger.info({ delivery: req.headers['x-github-delivery'] }, 'source webhook replay ignored');
      return sendJson(res, 200, { duplicate: true });
    }
    const repo = parsed.data.repository.full_name;
    for (const conversationId of await deps.followers.forRepo(repo)) {
      try {
        const language = await deps.chat.language?.(conversationId).catch(() => undefined);
        const card = importAnnouncement(
          repo,
          parsed.data.status,
          parsed.data.sender.login,
          translator(language),
        );
        await deps.chat.publisher.post(conversationId, card);
      } catch (error) {
        deps.logger.warn({ err: error, conversation: conversationId }, 'could not announce an import');
      }
    }
    // The import ended: its followers have heard. The signature has no timestamp, so the same body
    // replayed once its delivery record has expired must find no one to tell.
    await deps.followers.dropRepo(repo);
    sendJson(res, 202, { announced: true });
  });
}

/** What makes a delivery the same one again: the signed body and its event (hex SHA-256). */
export function deliveryDigest(event: string, body: Buffer): string {
  return createHash('sha256').update(event).update('\n').update(body).digest('hex');
}

/** The announcement of a finished import, in the words of `say` (the conversation's language). */
export function importAnnouncement(
  repo: string,
  status: 'success' | 'cancelled' | 'failure',
  sender: string,
  say: Translator = translator('en'),
): DraftCard {
  const words = {
    success: {
      title: say.t('web-import-title-success', repo),
      text: say.t('web-import-finished', repo, sender),
    },
    cancelled: {
      title: say.t('web-import-title-cancelled', repo),
      text: say.t('web-import-cancelled', repo, sender),
    },
    failure: {
      title: say.t('web-import-title-failure', repo),
      text: say.t('web-import-failed', repo, sender),
    },
  }[status];
  return {
    title: words.title,
    text: words.text,
    status: status === 'success' ? 'success' : status === 'failure' ? 'danger' : 'warning',
    actions: [{ label: say.t('web-import-button-status'), command: 'source import status', args: { repo } }],
  };
}
