/**
 * The components API: a tool's component configuration, its deploy token and its deployments
 * (`/components/v1/tool/{tool}/…`). Only creating and showing a deployment work with a deploy token.
 */
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
      action: 'show the component configuration',
      onError: notFound(`Tool ${this.session.tool} has no component configuration yet.`),
    });
  }

  /** Stores the tool's configuration (create or replace); returns it as stored. */
  setConfig(config: ToolConfig): Promise<ToolConfig> {
    return this.data({
      method: 'POST',
      path: ['config'],
      route: 'config',
      schema: ToolConfigResponseSchema,
      action: 'change the component configuration',
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
      action: 'delete the component configuration',
      onError: notFound(`Tool ${this.session.tool} has no component configuration to delete.`),
    });
  }

  /** A configuration generated from the tool's existing jobs (or an example); nothing is stored. */
  generateConfig(): Promise<ToolConfig> {
    return this.data({
      method: 'GET',
      path: ['config', 'generate'],
      route: 'config/generate',
      schema: ToolConfigResponseSchema,
      action: 'generate a component configuration',
    });
  }

  /** The tool's deploy token. */
  getDeployToken(): Promise<DeployToken> {
    return this.token('GET', 'show the deploy token');
  }

  /** Creates the deploy token (409 when one exists); also stores envvar `TOOL_DEPLOY_TOKEN`. */
  createDeployToken(): Promise<DeployToken> {
    return this.token('POST', 'create a deploy token');
  }

  /** Replaces the deploy token with a new one. */
  refreshDeployToken(): Promise<DeployToken> {
    return this.token('PUT', 'refresh the deploy token');
  }

  /** Deletes the deploy token; returns the deleted one. */
  deleteDeployToken(): Promise<DeployToken> {
    return this.token('DELETE', 'delete the deploy token');
  }

  /** The tool's deployments (the platform keeps 25); empty when there are none. */
  async listDeployments(): Promise<Deployment[]> {
    const data = await this.data({
      method: 'GET',
      path: ['deployment'],
      route: 'deployment',
      schema: DeploymentListResponseSchema,
      action: 'list deployments',
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
      action: 'start a deployment',
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
      action: 'show the latest deployment',
      onError: notFound(`Tool ${this.session.tool} has no deployments yet.`),
    });
  }

  /** One deployment by id. Works with a deploy token. */
  showDeployment(id: string): Promise<Deployment> {
    return this.deployment('GET', id, 'show a deployment', true);
  }

  /** Deletes a deployment record; returns it. */
  deleteDeployment(id: string): Promise<Deployment> {
    return this.deployment('DELETE', id, 'delete a deployment', false);
  }

  /** Cancels a pending or running deployment (409 otherwise); returns it. */
  cancelDeployment(id: string): Promise<Deployment> {
    return this.data({
      method: 'PUT',
      path: ['deployment', id, 'cancel'],
      route: 'deployment/{id}/cancel',
      schema: DeploymentResponseSchema,
      action: 'cancel a deployment',
      onError: notFound(`Deployment ${id} not found for tool ${this.session.tool}.`),
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
      action: 'cancel the latest deployment',
      query: { deployment_id: deploymentId },
      onError: notFound(`Deployment ${deploymentId} not found for tool ${this.session.tool}.`),
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
    action: string,
    tokenAllowed: boolean,
  ): Promise<Deployment> {
    return this.data({
      method,
      path: ['deployment', id],
      route: 'deployment/{id}',
      schema: DeploymentResponseSchema,
      action,
      tokenAllowed,
      onError: notFound(`Deployment ${id} not found for tool ${this.session.tool}.`),
    });
  }

  private token(method: 'GET' | 'POST' | 'PUT' | 'DELETE', action: string): Promise<DeployToken> {
    return this.data({
      method,
      path: ['deployment', 'token'],
      route: 'deployment/token',
      schema: DeployTokenResponseSchema,
      action,
      onError: method === 'POST' ? undefined : notFound(`Tool ${this.session.tool} has no deploy token yet.`),
    });
  }

  private async data<T>(call: Call<{ data: T }>): Promise<T> {
    const res = await this.session.call({ api: 'components', ...call });
    return res.data;
  }
}
