/** The approval card: what is asked, by whom, what it needs, each decision, and its buttons while open. */
import { type Translator, translator } from '../i18n/translate';
import type { ApprovalRecord } from './approvals';
import type { DraftCard } from './reply';
import { cardTime } from './times';

/** Command name of the Approve button of an approval card (its argument is the request's id). */
export const APPROVE_COMMAND = '__approve';

/** Command name of the Deny button of an approval card. */
export const DENY_COMMAND = '__deny';

/** What the card says under its decisions, once it is closed or while it waits. */
function stateText(record: ApprovalRecord, note: string | undefined, say: Translator): string {
  if (note) return note;
  if (record.state === 'denied') return say.t('approval-card-denied');
  if (record.state === 'approved') return say.t('approval-card-approved', record.command);
  const left = record.approvers - record.decisions.filter((d) => d.kind === 'approved').length;
  return say.t('approval-card-waiting', left, record.tool);
}

/**
 * The approval card for a request in its current state, in the words of `say` (the conversation's
 * language; English when not given); `note` replaces the state line.
 */
export function approvalCard(record: ApprovalRecord, note?: string, reader?: Translator): DraftCard {
  const say = reader ?? translator('en');
  const open = record.state === 'open' && !note;
  const ttlSeconds = Math.max(1, Math.ceil((record.expiresAt - Date.now()) / 1000));
  return {
    title: say.t('approval-card-title', record.command, record.tool),
    text: `${say.t('approval-card-asks', record.requester.name, record.question)}\n${stateText(record, note, say)}`,
    fields: [
      { label: say.t('approval-card-requested-by'), value: record.requester.name },
      {
        label: say.t('approval-card-needs'),
        value: say.t('approval-card-needs-value', record.approvers, record.tool),
      },
      ...(open
        ? [
            {
              label: say.t('approval-card-expires'),
              value: '',
              time: cardTime(record.expiresAt, { relative: true }) ?? { at: record.expiresAt },
            },
          ]
        : []),
      ...record.decisions.map((d) => ({
        label: d.kind === 'approved' ? say.t('approval-card-approved-by') : say.t('approval-card-denied-by'),
        value: d.name,
        time: { at: d.at },
      })),
    ],
    ...(record.preview ? { code: record.preview } : {}),
    status:
      record.state === 'denied' ? 'danger' : record.state === 'approved' && !note ? 'success' : 'warning',
    tool: record.tool,
    ...(reader ? { locale: reader.language } : {}),
    ...(open
      ? {
          actions: [
            {
              label: say.t('approval-card-approve'),
              command: APPROVE_COMMAND,
              args: { approval: record.id },
              style: 'primary' as const,
              ttlSeconds,
            },
            {
              label: say.t('approval-card-deny'),
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
