/** Masking known secrets in outgoing cards (the dispatcher applies it to every card it renders). */

import { scrubSecrets } from '../secrets';
import type { Card } from './reply';

/**
 * A card with every known secret masked, as a last line of defence. Private cards are left alone:
 * they go to the one person who asked (in their private chat), which is where a command such as
 * `/token show` means to show a secret.
 */
export function scrubCard(card: Card): Card {
  if (card.visibility === 'private') return card;
  const out: Card = { ...card };
  if (card.title !== undefined) out.title = scrubSecrets(card.title);
  if (card.text !== undefined) out.text = scrubSecrets(card.text);
  if (card.footer !== undefined) out.footer = scrubSecrets(card.footer);
  if (card.code) out.code = { ...card.code, text: scrubSecrets(card.code.text) };
  if (card.fields) {
    out.fields = card.fields.map((f) => ({
      ...f,
      label: scrubSecrets(f.label),
      value: scrubSecrets(f.value),
    }));
  }
  if (card.buttons) out.buttons = card.buttons.map((b) => ({ ...b, label: scrubSecrets(b.label) }));
  if (card.links) out.links = card.links.map((l) => ({ ...l, label: scrubSecrets(l.label) }));
  if (card.attachments) {
    out.attachments = card.attachments.map((a) => ({ ...a, content: scrubSecrets(a.content) }));
  }
  return out;
}
