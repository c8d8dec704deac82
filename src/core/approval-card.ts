/** The approval card: what is asked, by whom, what it needs, each decision, and its buttons while open. */
import type { ApprovalRecord } from './approvals';
import type { DraftCard } from './reply';
import { cardTime } from './times';

/** Command name of the Approve button of an approval card (its argument is the request's id). */
export const APPROVE_COMMAND = '__approve';

/** Command name of the Deny button of an approval card. */
export const DENY_COMMAND = '__deny';

/** `1 approval`, `2 approvals`. */
function approvals(count: number): string {
  return `${count} approval${count === 1 ? '' : 's'}`;
}

/** What the card says under its decisions, once it is closed or while it waits. */
function stateText(record: ApprovalRecord, note: string | undefined): string {
  if (note) return note;
  if (record.state === 'denied') return 'Denied: nothing was run.';
  if (record.state === 'approved') return `Approved: /${record.command} runs now, once.`;
  const left = record.approvers - record.decisions.filter((d) => d.kind === 'approved').length;
  const who = left === 1 ? 'another maintainer' : `${left} more maintainers`;
  return `It runs once ${who} of ${record.tool} approve${left === 1 ? 's' : ''}; Deny or expiry ends it.`;
}

/** The approval card for a request in its current state; `note` replaces the state line. */
export function approvalCard(record: ApprovalRecord, note?: string): DraftCard {
  const open = record.state === 'open' && !note;
  const ttlSeconds = Math.max(1, Math.ceil((record.expiresAt - Date.now()) / 1000));
  return {
    title: `Approval needed: /${record.command} ${record.tool}`,
    text: `${record.requester.name} asks: ${record.question}\n${stateText(record, note)}`,
    fields: [
      { label: 'Requested by', value: record.requester.name },
      { label: 'Needs', value: `${approvals(record.approvers)} by another maintainer of ${record.tool}` },
      ...(open
        ? [
            {
              label: 'Expires',
              value: '',
              time: cardTime(record.expiresAt, { relative: true }) ?? { at: record.expiresAt },
            },
          ]
        : []),
      ...record.decisions.map((d) => ({
        label: d.kind === 'approved' ? 'Approved by' : 'Denied by',
        value: d.name,
        time: { at: d.at },
      })),
    ],
    ...(record.preview ? { code: record.preview } : {}),
    status:
      record.state === 'denied' ? 'danger' : record.state === 'approved' && !note ? 'success' : 'warning',
    tool: record.tool,
    ...(open
      ? {
          actions: [
            {
              label: 'Approve',
              command: APPROVE_COMMAND,
              args: { approval: record.id },
              style: 'primary' as const,
              ttlSeconds,
            },
            {
              label: 'Deny',
              command: DENY_COMMAND,
              args: { approval: record.id },
              style: 'danger' as const,
              ttlSeconds,
            },
          ],
        }
      : {}),
  };
}
