/**
 * Webhook delivery: `POST` to every configured hook with the service's headers (`X-GitHub-Event`,
 * `X-GitHub-Delivery`, `X-GitHub-Hook-ID`, the installation target, `User-Agent: GitHub-Hookshot/…`)
 * and `X-Hub-Signature-256` (HMAC-SHA256 of the body with the hook's secret). Deliveries are
 * recorded for tests; a failed one is not retried (as the service, which offers manual redelivery).
 */
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { repoJson, userJson } from './responses';
import type { SandboxDelivery, SandboxImport, SourcehostState } from './state';

/** Posts one event to every hook; resolves when all deliveries were attempted. */
export async function deliverWebhook(
  state: SourcehostState,
  event: string,
  payload: unknown,
): Promise<SandboxDelivery[]> {
  const body = JSON.stringify(payload);
  const done: SandboxDelivery[] = [];
  for (const hook of state.hooks) {
    const delivery: SandboxDelivery = {
      id: state.deliveryId(),
      hookId: hook.id,
      event,
      body,
      status: 'error',
    };
    try {
      const response = await request(hook.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/sandbox',
          'x-github-event': event,
          'x-github-delivery': delivery.id,
          'x-github-hook-id': String(hook.id),
          'x-github-hook-installation-target-id': '900001',
          'x-github-hook-installation-target-type': 'organization',
          'x-hub-signature-256': `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`,
        },
        // GitHub ends a delivery whose answer takes longer than 10 s ("Handling failed webhook
        // deliveries", docs.github.com/webhooks/using-webhooks/handling-failed-webhook-deliveries).
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await response.body.dump();
      delivery.status = response.statusCode;
    } catch {
      delivery.status = 'error';
    }
    state.deliveries.push(delivery);
    done.push(delivery);
  }
  return done;
}

/** The `repository_import` payload for a finished import. */
export function repositoryImportPayload(
  state: SourcehostState,
  item: SandboxImport,
  status: 'success' | 'cancelled' | 'failure',
) {
  const repo = state.repos.get(item.repo);
  const sender = state.accounts.get(item.sender);
  const owner = repo ? state.accounts.get(repo.owner) : undefined;
  return {
    status,
    repository: repo ? repoJson(state, repo) : { full_name: item.repo },
    sender: sender ? userJson(state, sender) : { login: item.sender },
    ...(owner?.type === 'Organization' ? { organization: { login: owner.login, id: owner.id } } : {}),
  };
}
