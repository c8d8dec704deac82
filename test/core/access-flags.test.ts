import { describe, expect, it } from 'vitest';
import { AccessPolicy, type CommandAccess, type LinkedAccess } from '../../src/core/access';
import type { ChatUser } from '../../src/core/command';
import { PermissionDenied } from '../../src/core/errors';
import { FSI, PDI, translator } from '../../src/i18n/translate';

const holder: ChatUser = { platform: 'slack', id: 'UHOLDER', name: 'holder', workspace: 'T1' };

/** A user who linked a deploy token of `mytool` and no source-host account. */
const linked: LinkedAccess = {
  async hasDeployToken(user, tool) {
    return user.id === holder.id && tool === 'mytool';
  },
  async pushAccess() {
    return { kind: 'not-linked' };
  },
};

const commands: CommandAccess[] = [
  { name: 'deploy', deploys: true },
  { name: 'link tool', selfService: true },
  { name: 'jobs delete' },
  { name: 'jobs show' },
];

function policy(readAccess: 'everyone' | 'maintainers' = 'everyone') {
  return new AccessPolicy({ admins: [], maintainers: [], readAccess, linked, commands });
}

describe('access flags declared on commands', () => {
  it('lets a deploy-token holder run a command flagged `deploys`, and no other write command', async () => {
    await expect(policy().check(holder, 'write', 'mytool', 'deploy')).resolves.toBeUndefined();
    await expect(policy().check(holder, 'write', 'othertool', 'deploy')).rejects.toThrow(PermissionDenied);
    const refusal = await policy()
      .check(holder, 'write', 'mytool', 'jobs delete')
      .catch((error: unknown) => error as PermissionDenied);
    expect(refusal?.message).toBe('Only maintainers of mytool can do that.');
    // Without the flag, a deploy token is not offered as a way in; with it, it is.
    expect(refusal?.hint).not.toContain('/link tool');
    const deployRefusal = await policy()
      .check({ ...holder, id: 'USTRANGER' }, 'write', 'mytool', 'deploy')
      .catch((error: unknown) => error as PermissionDenied);
    expect(deployRefusal?.hint).toContain('link a deploy token of mytool with /link tool mytool');
  });

  it('opens a `selfService` command to everyone where reading a tool needs a role', async () => {
    const stranger: ChatUser = { ...holder, id: 'USTRANGER' };
    await expect(
      policy('maintainers').check(stranger, 'read', 'mytool', 'link tool'),
    ).resolves.toBeUndefined();
    await expect(policy('maintainers').check(stranger, 'read', 'mytool', 'jobs show')).rejects.toThrow(
      'here (READ_ACCESS=maintainers)',
    );
  });

  it("says the refusal and each way in the reader's language, English kept for logs", async () => {
    const stranger: ChatUser = { ...holder, id: 'USTRANGER' };
    const refusal = await policy()
      .check(stranger, 'write', 'mytool', 'deploy')
      .catch((error: unknown) => error as PermissionDenied);
    expect(refusal?.message).toBe('Only maintainers of mytool can do that.');
    expect(refusal?.hint).toBe(
      "To get it: ask an admin to add mytool=slack:USTRANGER to TOOL_MAINTAINERS; or link your source-host account with /link source (push access to mytool's repository makes you a maintainer); or link a deploy token of mytool with /link tool mytool (lets you deploy it).",
    );
    const german = refusal?.words?.(translator('de'));
    expect(german?.message).toBe('Nur Maintainer von mytool können das tun.');
    expect(german?.hint).toContain(
      'bitte einen Admin, mytool=slack:USTRANGER zu TOOL_MAINTAINERS hinzuzufügen; oder ',
    );
    expect(german?.hint).toContain('; oder verknüpfe ein Deploy-Token von mytool mit /link tool mytool');
    const hebrew = refusal?.words?.(translator('he'));
    expect(hebrew?.message).toBe(`רק מתחזקים של ${FSI}mytool${PDI} יכולים לעשות את זה.`);
    expect(hebrew?.hint?.split('; או ')).toHaveLength(3);

    const admin = await policy()
      .check(stranger, 'admin', undefined)
      .catch((error: unknown) => error as PermissionDenied);
    expect(admin?.message).toBe('Only Deckhand admins can do that.');
    expect(admin?.words?.(translator('de')).hint).toBe(
      `Bitte einen Admin, slack:USTRANGER zu ADMINS hinzuzufügen.`,
    );
  });
});
