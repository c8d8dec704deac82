/**
 * A tool's secret envvars registered before its logs are shown. Cards about a tool mask the values
 * of its secret-looking envvars (see `docs/secrets.md`), but only values Deckhand has seen: one set
 * outside Deckhand (the `toolforge envvars` CLI) would show in `/logs` until someone listed the
 * envvars. So the log commands list them first (one request; values already registered cost no write).
 */
import type { ToolhostClient } from '../../src/services/toolhost';
import type { ToolhostServices } from './context';

/**
 * Lists the tool's envvars and registers the secret-looking ones. When they cannot be listed (the
 * service is down, no rights to read them), the logs are still shown, masked with what is registered.
 */
export async function registerLogSecrets(
  services: Pick<ToolhostServices, 'accounts'>,
  client: ToolhostClient,
  tool: string,
): Promise<void> {
  const envvars = await client.envvars.list().catch(() => []);
  for (const envvar of envvars) {
    await services.accounts.secrets.registerEnvvar(tool, envvar.name, envvar.value);
  }
}
