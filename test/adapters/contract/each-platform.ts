/**
 * The shared setup of the team-feature contract cases (locks, approvals, rollback, claimed failures):
 * one running Deckhand per platform, through the real adapter and its fake (IRC: a real network),
 * started before the platform's cases and closed after them; and the few steps every such case takes.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import type { ApprovalRecord } from '../../../src/core/approvals';
import type { MessageHandle } from '../../../src/core/command';
import type { AuditEntry } from '../../../src/store/audit';
import { waitFor } from '../../support/wait';
import { discordDriver } from './discord-driver';
import type { ContractDriver, Shown } from './driver';
import { ircDriver } from './irc-driver';
import { matrixDriver } from './matrix-driver';
import { shellDriver } from './shell-driver';
import { slackDriver } from './slack-driver';
import { telegramDriver } from './telegram-driver';

/** Every platform with a contract driver. */
export const DRIVERS = [
  { name: 'slack', start: slackDriver },
  { name: 'discord', start: discordDriver },
  { name: 'telegram', start: telegramDriver },
  { name: 'matrix', start: matrixDriver },
  { name: 'shell', start: shellDriver },
  { name: 'irc', start: ircDriver },
] as const;

/**
 * How long a driver may take to start or stop: the IRC one starts a whole network and registers its
 * people's accounts first, on a machine whose every core may be busy.
 */
export const DRIVER_HOOK_MS = 180_000;

/** A message as a person can read it: its text and, where it links to one, the whole card's page. */
export function readable(message: Shown): string {
  return message.page === undefined ? message.text : `${message.text}\n${message.page}`;
}

/**
 * Describes `title` once per platform; `cases` declares the tests, reaching the platform's running
 * driver through `driver()` (started in `beforeAll`, closed in `afterAll`).
 */
export function describeEachPlatform(title: string, cases: (driver: () => ContractDriver) => void): void {
  describe.each(DRIVERS)(`$name: ${title}`, ({ start }) => {
    let running: ContractDriver | undefined;
    beforeAll(async () => {
      running = await start();
    }, DRIVER_HOOK_MS);
    afterAll(async () => {
      await running?.close();
    }, DRIVER_HOOK_MS);
    cases(() => {
      if (!running) throw new Error('the platform driver did not start');
      return running;
    });
  });
}

/** The platform's id of a posted message (what {@link ContractDriver.press} takes). */
export function messageId(handle: MessageHandle): string {
  return (handle.ref.ts ?? handle.ref.message) as string;
}

/** Posts `card` in the driver's conversation and returns the message's id. */
export async function postCard(
  d: ContractDriver,
  card: Parameters<ContractDriver['app']['publisher']['post']>[1],
) {
  return messageId((await d.app.publisher.post(d.conversationId, card)) as MessageHandle);
}

/**
 * The tool's change records since `since`, oldest first, once `done` says they are all there (a
 * record is written once the outcome is known, just after the answer is shown).
 */
export async function auditSince(
  d: ContractDriver,
  tool: string,
  since: number,
  done: (records: AuditEntry[]) => boolean,
): Promise<AuditEntry[]> {
  return waitFor(async () => {
    const found = (await d.app.services.accounts.audit.recent({ tool, limit: 50 }))
      .filter((e) => e.at >= since)
      .reverse();
    return done(found) ? found : undefined;
  });
}

/**
 * An open approval of `/deploy mytool` asked by a requester of the driver's platform in its
 * conversation, expiring `expiresAt` (not yet stored).
 */
export function deployApproval(d: ContractDriver, id: string, expiresAt: number): ApprovalRecord {
  return {
    id,
    tool: 'mytool',
    command: 'deploy',
    requester: { platform: d.platform, id: 'requester', name: `Requester-${d.platform}`, workspace: 'w' },
    conversationId: d.conversationId,
    args: JSON.stringify({ tool: 'mytool' }),
    question: 'Deploy mytool?',
    approvers: 1,
    expiresAt,
    state: 'open',
    decisions: [],
  };
}
