/** Masking registered secrets in outgoing cards (the dispatcher applies it to every card it renders). */

import { type SecretScrubber, scrubSecrets } from '../secrets';
import type { Card } from './reply';

/**
 * A card with every registered secret masked, as a last line of defence: global secrets (vault
 * values, deploy tokens, configured keys) in every string; the secret envvar values of `tool` only in
 * its untrusted parts — the code block and attachments, where logs and upstream output go. Private
 * cards are left alone: they go to the one person who asked (in their private chat), which is where a
 * command such as `/token show` means to show a secret. One look-up for the whole card.
 */
export async function scrubCard(card: Card, scrubber: SecretScrubber, tool?: string): Promise<Card> {
  if (card.visibility === 'private') return card;
  const texts: string[] = [];
  const untrusted = new Set<number>();
  const take = (text: string, isUntrusted = false): number => {
    if (isUntrusted) untrusted.add(texts.length);
    texts.push(text);
    return texts.length - 1;
  };
  const at = {
    title: card.title !== undefined ? take(card.title) : -1,
    text: card.text !== undefined ? take(card.text) : -1,
    footer: card.footer !== undefined ? take(card.footer) : -1,
    code: card.code ? take(card.code.text, true) : -1,
    fields: card.fields?.map((f) => [take(f.label), take(f.value)] as const),
    buttons: card.buttons?.map((b) => take(b.label)),
    links: card.links?.map((l) => take(l.label)),
    attachments: card.attachments?.map((a) => take(a.content, true)),
  };
  const out = await scrubber.scrubTexts(texts, { ...(tool ? { tool } : {}), untrusted });
  const get = (index: number) => out[index] as string;
  const scrubbed: Card = { ...card };
  if (card.title !== undefined) scrubbed.title = get(at.title);
  if (card.text !== undefined) scrubbed.text = get(at.text);
  if (card.footer !== undefined) scrubbed.footer = get(at.footer);
  if (card.code) scrubbed.code = { ...card.code, text: get(at.code) };
  if (card.fields && at.fields) {
    const places = at.fields;
    scrubbed.fields = card.fields.map((f, i) => {
      const [label, value] = places[i] as readonly [number, number];
      return { ...f, label: get(label), value: get(value) };
    });
  }
  if (card.buttons && at.buttons) {
    const places = at.buttons;
    scrubbed.buttons = card.buttons.map((b, i) => ({ ...b, label: get(places[i] as number) }));
  }
  if (card.links && at.links) {
    const places = at.links;
    scrubbed.links = card.links.map((l, i) => ({ ...l, label: get(places[i] as number) }));
  }
  if (card.attachments && at.attachments) {
    const places = at.attachments;
    scrubbed.attachments = card.attachments.map((a, i) => ({ ...a, content: get(places[i] as number) }));
  }
  return scrubbed;
}

/**
 * {@link scrubCard} with only what this process knows (`scrubSecrets`), synchronously: for renderers
 * that mask once more on their own. Private cards are left alone.
 */
export function scrubCardKnown(card: Card): Card {
  if (card.visibility === 'private') return card;
  const s = scrubSecrets;
  const out: Card = { ...card };
  if (card.title !== undefined) out.title = s(card.title);
  if (card.text !== undefined) out.text = s(card.text);
  if (card.footer !== undefined) out.footer = s(card.footer);
  if (card.code) out.code = { ...card.code, text: s(card.code.text) };
  if (card.fields) out.fields = card.fields.map((f) => ({ ...f, label: s(f.label), value: s(f.value) }));
  if (card.buttons) out.buttons = card.buttons.map((b) => ({ ...b, label: s(b.label) }));
  if (card.links) out.links = card.links.map((l) => ({ ...l, label: s(l.label) }));
  if (card.attachments) out.attachments = card.attachments.map((a) => ({ ...a, content: s(a.content) }));
  return out;
}
