/**
 * Phabricator's task search (Conduit `maniphest.search`): a task's title and status by its number,
 * for the cards of `T123` links.
 */
import { NotFoundError, UnreachableError, UpstreamError } from '../core/errors';

/** A task as a card shows it. */
export interface PhabricatorTask {
  id: number;
  title: string;
  /** The status's name (`Open`, `Resolved`). */
  status: string;
  /** Whether the status is open (`open`, `progress`, `stalled`). */
  open: boolean;
  url: string;
}

interface SearchAnswer {
  result: {
    data: { id: number; fields: { name: string; status: { value: string; name: string } } }[];
  } | null;
  error_code: string | null;
  error_info: string | null;
}

const OPEN = new Set(['open', 'progress', 'stalled']);

/** Reads tasks from one Phabricator. */
export class PhabricatorClient {
  constructor(private readonly options: { url: string; token?: string | undefined; timeoutMs?: number }) {}

  /** The task's web address (`https://phabricator.example.org/T123`). */
  taskUrl(id: number): string {
    return new URL(`/T${id}`, this.options.url).toString();
  }

  /** The task `T<id>`; throws NotFoundError when there is none (or it is not visible). */
  async task(id: number): Promise<PhabricatorTask> {
    const body = new URLSearchParams({ 'constraints[ids][0]': String(id), limit: '1' });
    if (this.options.token) body.set('api.token', this.options.token);
    let response: Response;
    try {
      response = await fetch(new URL('/api/maniphest.search', this.options.url), {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new UnreachableError('Phabricator', (say) => ({ message: say.t('phab-api-no-answer') }), {
        cause: error,
      });
    }
    if (!response.ok) throw new UpstreamError('Phabricator', response.status, response.statusText);
    const answer = (await response.json()) as SearchAnswer;
    if (answer.error_code || !answer.result) {
      const said = answer.error_info ?? answer.error_code;
      throw said
        ? new UpstreamError('Phabricator', 200, said)
        : new UpstreamError('Phabricator', 200, (say) => ({ message: say.t('phab-api-no-result') }));
    }
    const task = answer.result.data.find((t) => t.id === id);
    if (!task) throw new NotFoundError((say) => ({ message: say.t('phab-api-no-such-task', `T${id}`) }));
    const status = task.fields.status;
    return {
      id,
      title: task.fields.name,
      status: status.name,
      open: OPEN.has(status.value),
      url: this.taskUrl(id),
    };
  }
}
