/** The tools part of `/me`: each of the person's tools with its status chip. */

import { plural } from '../../src/core/plural';
import type { HomeSection } from '../home';
import { toolChip } from './tool-health';

/**
 * `mytool: [ok]`, `demo: [failing] deployment failed`: the chips of the tools in the view, read at
 * once (three requests a tool), with where each comes from and how many were left out.
 */
export const toolsHomeSection: HomeSection = async ({ services, tools, invocation }) => {
  const chips = await Promise.all(tools.shown.map((tool) => toolChip(() => services.toolhost.forTool(tool))));
  const lines = tools.shown.map((tool, i) => {
    const chip = chips[i];
    const how = tools.maintained.includes(tool) ? '' : ' (deploy token linked)';
    const detail = chip?.detail ? ` ${chip.detail}` : '';
    return `${tool}: [${chip?.word ?? 'unknown'}]${detail}${how}`;
  });
  if (tools.more > 0) {
    lines.push(`and ${plural(tools.more, 'more tool')}: /tool status <tool> shows any of them`);
  }
  const admin = services.accounts.access.isAdmin(invocation.user);
  const empty = admin
    ? 'none of your own (as an admin you may act on every tool: /tool status <tool>)'
    : 'none yet';
  return { title: 'Your tools', lines, empty };
};
