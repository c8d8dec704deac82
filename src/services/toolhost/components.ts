/**
 * The components API: a tool's component configuration, its deploy token and its deployments
 * (`/components/v1/tool/{tool}/…`). Only creating and showing a deployment work with a deploy token.
 */

import type { MessageKey } from '../../i18n/translate';
import type { ServiceHealth } from './common-schemas';
import {
  ComponentsHealthSchema,
  type CreateDeploymentInput,
  type Deployment,
  DeploymentListResponseSchema,
  DeploymentResponseSchema,
  type DeployToken,
  DeployTokenResponseSchema,
  type ToolConfig,
  ToolConfigResponseSchema,
} from './components-schemas';
import { notFound } from './errors';
import type { ToolCall, ToolhostSession } from './session';

type Call<T> = Omit<ToolCall<T>, 'api'>;

/** Component configuration, deploy token and deployments of one tool. */
export class ComponentsApi {
  constructor(private readonly session: ToolhostSession) {}

  /** The tool's stored configuration. */
  getConfig(): Promise<ToolConfig> {
    return this.data({
      method: 'GET',
      path: ['config'],
      route: 'config',
      schema: ToolConfigResponseSchema,
      action: 'toolhost-api-action-show-component-configuration',
      onError: notFound((say) => ({ message: say.t('toolhost-api-no-config', this.session.tool) })),
    });
  }

  /** Stores the tool's configuration (create or replace); returns it as stored. */
  setConfig(config: ToolConfig): Promise<ToolConfig> {
    return this.data({
      method: 'POST',
      path: ['config'],
      route: 'config',
      schema: ToolConfigResponseSchema,
      action: 'toolhost-api-action-change-component-configuration',
      body: config,
    });
  }

  /** Deletes the tool's configuration; returns what was deleted. */
  deleteConfig(): Promise<ToolConfig> {
    return this.data({
      method: 'DELETE',
      path: ['config'],
      route: 'config',
      schema: ToolConfigResponseSchema,
      action: 'toolhost-api-action-delete-component-configuration',
      onError: notFound((say) => ({ message: say.t('toolhost-api-no-config-to-delete', this.session.tool) })),
    });
  }

  /** A configuration generated from the tool's existing jobs (or an example); nothing is stored. */
  generateConfig(): Promise<ToolConfig> {
    return this.data({
      method: 'GET',
      path: ['config', 'generate'],
      route: 'config/generate',
      schema: ToolConfigResponseSchema,
      action: 'toolhost-api-action-generate-component-configuration',
    });
  }

  /** The tool's deploy token. */
  getDeployToken(): Promise<DeployToken> {
    return this.token('GET', 'toolhost-api-action-show-deploy-token');
  }

  /** Creates the deploy token (409 when one exists); also stores envvar `TOOL_DEPLOY_TOKEN`. */
  createDeployToken(): Promise<DeployToken> {
    return this.token('POST', 'toolhost-api-action-create-deploy-token');
  }

  /** Replaces the deploy token with a new one. */
  refreshDeployToken(): Promise<DeployToken> {
    return this.token('PUT', 'toolhost-api-action-refresh-deploy-token');
  }

  /** Deletes the deploy token; returns the deleted one. */
  deleteDeployToken(): Promise<DeployToken> {
    return this.token('DELETE', 'toolhost-api-action-delete-deploy-token');
  }

  /** The tool's deployments (the platform keeps 25); empty when there are none. */
  async listDeployments(): Promise<Deployment[]> {
    const data = await this.data({
      method: 'GET',
      path: ['deployment'],
      route: 'deployment',
      schema: DeploymentListResponseSchema,
      action: 'toolhost-api-action-list-deployments',
    });
    return data.deployments;
  }

  /**
   * Starts a deployment of the stored configuration (409 while another is pending or running).
   * Works with a deploy token. The answer comes at once; poll {@link showDeployment}.
   */
  createDeployment(input: CreateDeploymentInput = {}): Promise<Deployment> {
    const query: Record<string, boolean> = {};
    if (input.forceBuild !== undefined) query['force-build'] = input.forceBuild;
    if (input.forceRun !== undefined) query['force-run'] = input.forceRun;
    return this.data({
      method: 'POST',
      path: ['deployment'],
      route: 'deployment',
      schema: DeploymentResponseSchema,
      action: 'toolhost-api-action-start-deployment',
      tokenAllowed: true,
      query,
      body: input.description === undefined ? undefined : { description: input.description },
    });
  }

  /** The most recent deployment. */
  latestDeployment(): Promise<Deployment> {
    return this.data({
      method: 'GET',
      path: ['deployment', 'latest'],
      route: 'deployment/latest',
      schema: DeploymentResponseSchema,
      action: 'toolhost-api-action-show-latest-deployment',
      onError: notFound((say) => ({ message: say.t('toolhost-api-no-deployments', this.session.tool) })),
    });
  }

  /** One deployment by id. Works with a deploy token. */
  showDeployment(id: string): Promise<Deployment> {
    return this.deployment('GET', id, 'toolhost-api-action-show-deployment', true);
  }

  /** Deletes a deployment record; returns it. */
  deleteDeployment(id: string): Promise<Deployment> {
    return this.deployment('DELETE', id, 'toolhost-api-action-delete-deployment', false);
  }

  /** Cancels a pending or running deployment (409 otherwise); returns it. */
  cancelDeployment(id: string): Promise<Deployment> {
    return this.data({
      method: 'PUT',
      path: ['deployment', id, 'cancel'],
      route: 'deployment/{id}/cancel',
      schema: DeploymentResponseSchema,
      action: 'toolhost-api-action-cancel-deployment',
      onError: notFound((say) => ({
        message: say.t('toolhost-api-deployment-not-found', id, this.session.tool),
      })),
    });
  }

  /**
   * Cancels the latest deployment through `PUT deployment/latest/cancel?deployment_id=`; the
   * service requires the id of that deployment, so nothing else is cancelled by mistake.
   */
  cancelLatestDeployment(deploymentId: string): Promise<Deployment> {
    return this.data({
      method: 'PUT',
      path: ['deployment', 'latest', 'cancel'],
      route: 'deployment/latest/cancel',
      schema: DeploymentResponseSchema,
      action: 'toolhost-api-action-cancel-latest-deployment',
      query: { deployment_id: deploymentId },
      onError: notFound((say) => ({
        message: say.t('toolhost-api-deployment-not-found', deploymentId, this.session.tool),
      })),
    });
  }

  /** Health of the components API (no authentication). */
  healthz(): Promise<ServiceHealth> {
    return this.session.health('/components/v1/healthz', ComponentsHealthSchema);
  }

  /** Prometheus metrics of the components API (no authentication). */
  metrics(): Promise<string> {
    return this.session.metrics('/components/metrics');
  }

  private deployment(
    method: 'GET' | 'DELETE',
    id: string,
    action: MessageKey,
    tokenAllowed: boolean,
  ): Promise<Deployment> {
    return this.data({
      method,
      path: ['deployment', id],
      route: 'deployment/{id}',
      schema: DeploymentResponseSchema,
      action,
      tokenAllowed,
      onError: notFound((say) => ({
        message: say.t('toolhost-api-deployment-not-found', id, this.session.tool),
      })),
    });
  }

  private token(method: 'GET' | 'POST' | 'PUT' | 'DELETE', action: MessageKey): Promise<DeployToken> {
    return this.data({
      method,
      path: ['deployment', 'token'],
      route: 'deployment/token',
      schema: DeployTokenResponseSchema,
      action,
      onError:
        method === 'POST'
          ? undefined
          : notFound((say) => ({ message: say.t('toolhost-api-no-deploy-token', this.session.tool) })),
    });
  }

  private async data<T>(call: Call<{ data: T }>): Promise<T> {
    const res = await this.session.call({ api: 'components', ...call });
    return res.data;
  }
}
