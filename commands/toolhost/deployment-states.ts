/**
 * The states the tool platform reports for a deployment and for each component's build and run
 * (`pending`, `successful`, …), in the reader's language: the platform's own word in English, a
 * catalog word in the others. A state the platform adds later is shown as it sent it.
 */
import type { MessageKey, Translator } from '../../src/i18n/translate';
import type {
  DeploymentBuildStatus,
  DeploymentRunStatus,
  DeploymentStatus,
} from '../../src/services/toolhost';

type State = DeploymentStatus | DeploymentBuildStatus | DeploymentRunStatus;

const STATE_KEY = {
  pending: 'deploy-state-pending',
  running: 'deploy-state-running',
  successful: 'deploy-state-successful',
  failed: 'deploy-state-failed',
  timed_out: 'deploy-state-timed-out',
  cancelling: 'deploy-state-cancelling',
  cancelled: 'deploy-state-cancelled',
  skipped: 'deploy-state-skipped',
  unknown: 'deploy-state-unknown',
} as const satisfies Record<State, MessageKey>;

/** A deployment's, a build's or a run's state in `say`'s language (`successful` → `erfolgreich`). */
export function deploymentStateWord(say: Translator, state: string): string {
  return Object.hasOwn(STATE_KEY, state) ? say.t(STATE_KEY[state as State]) : state;
}
