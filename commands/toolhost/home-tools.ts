/** The tools part of `/me`: each of the person's tools with its status chip. */

import type { HomeContext, HomeSection } from '../home';
import { toolChip } from './tool-health';

/**
 * `mytool: [ok]`, `demo: [failing] deployment failed`: the chips of the tools in the view, read at
 * once (three requests a tool), with where each comes from and how many were left out.
 */
export const toolsHomeSection: HomeSection = async ({ services, tools, invocation, say }: HomeContext) => {
  const chips = await Promise.all(
    tools.shown.map((tool) => toolChip(() => services.toolhost.forTool(tool), say)),
  );
  const lines = tools.shown.map((tool, i) => {
    const chip = chips[i];
    const word = chip?.word ?? say.t('deploy-state-unknown');
    const line = chip?.detail
      ? say.t('home-tools-line-detail', tool, word, chip.detail)
      : say.t('home-tools-line', tool, word);
    return tools.maintained.includes(tool) ? line : say.t('home-tools-token-linked', line);
  });
  if (tools.more > 0) lines.push(say.t('home-tools-more', tools.more));
  const admin = services.accounts.access.isAdmin(invocation.user);
  const empty = admin ? say.t('home-tools-none-admin') : say.t('home-tools-none');
  return { title: say.t('home-tools-title'), lines, empty };
};
