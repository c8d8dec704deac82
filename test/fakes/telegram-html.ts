/**
 * Telegram's HTML parse mode, as the Bot API documents it (core.telegram.org/bots/api#html-style):
 * the supported tags, the four named entities plus numeric ones, and the rule that every `<`, `>` and
 * `&` outside a tag or entity must be escaped. The fake parses what the bot sends with it, so markup
 * Telegram would refuse ("Can't parse entities") fails the test, and tests can assert on the text a
 * user sees and the entities (bold, code, links) it carries.
 */

/** One formatting entity of a parsed message, in UTF-16 code units like the Bot API's. */
export interface ParsedEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
}

/** The text a user sees, with its entities. */
export interface ParsedHtml {
  text: string;
  entities: ParsedEntity[];
}

/** Thrown for markup Telegram refuses; the message is the Bot API's error description. */
export class HtmlParseError extends Error {}

const ENTITY_OF_TAG: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  a: 'text_link',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
  'tg-emoji': 'custom_emoji',
};

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

interface OpenTag {
  name: string;
  start: number;
  attributes: Record<string, string>;
}

function fail(what: string, byteOffset: number): never {
  throw new HtmlParseError(`Bad Request: can't parse entities: ${what} at byte offset ${byteOffset}`);
}

function byteOffset(html: string, index: number): number {
  return Buffer.byteLength(html.slice(0, index));
}

/** Decodes the entity starting at `html[index] === '&'`; undefined when it is not one Telegram knows. */
function decodeEntity(html: string, index: number): { char: string; end: number } | undefined {
  const match = /^&(?:(lt|gt|amp|quot)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/.exec(html.slice(index, index + 12));
  if (!match) return undefined;
  const end = index + match[0].length;
  if (match[1]) return { char: NAMED[match[1]] as string, end };
  const code = match[2] ? Number(match[2]) : Number.parseInt(match[3] as string, 16);
  if (code > 0x10ffff || code === 0) return undefined;
  return { char: String.fromCodePoint(code), end };
}

function decodeAttribute(html: string, value: string, at: number): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '&') {
      const decoded = decodeEntity(value, i);
      if (!decoded) fail('unescaped "&" in an attribute value', byteOffset(html, at));
      out += decoded.char;
      i = decoded.end - 1;
    } else out += value[i];
  }
  return out;
}

function parseAttributes(html: string, source: string, at: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /\s*([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/y;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(source);
    if (!match) fail('malformed attribute', byteOffset(html, at));
    const raw = match[2] ?? match[3] ?? match[4] ?? '';
    attributes[(match[1] as string).toLowerCase()] = decodeAttribute(html, raw, at);
    index = pattern.lastIndex;
  }
  return attributes;
}

function checkStartTag(html: string, tag: OpenTag, at: number, stack: OpenTag[]): void {
  const offset = byteOffset(html, at);
  if (!(tag.name in ENTITY_OF_TAG)) fail(`unsupported start tag "${tag.name}"`, offset);
  if (tag.name === 'span' && tag.attributes.class !== 'tg-spoiler') {
    fail('tag "span" must have class "tg-spoiler"', offset);
  }
  if (tag.name === 'a' && !tag.attributes.href) fail('tag "a" needs an "href"', offset);
  if (tag.name === 'code' && tag.attributes.class !== undefined) {
    const inPre = stack.at(-1)?.name === 'pre';
    if (!inPre || !/^language-[\w+#.-]+$/.test(tag.attributes.class)) {
      fail('a language can only be given to a code tag inside a pre tag', offset);
    }
  }
  if (
    (tag.name === 'pre' || tag.name === 'code') &&
    stack.some((t) => t.name === 'pre' || t.name === 'code')
  ) {
    if (!(tag.name === 'code' && stack.at(-1)?.name === 'pre')) fail('nested code entities', offset);
  }
}

function entityOf(tag: OpenTag, end: number, stack: OpenTag[]): ParsedEntity | undefined {
  const length = end - tag.start;
  if (length === 0) return undefined;
  const entity: ParsedEntity = { type: ENTITY_OF_TAG[tag.name] as string, offset: tag.start, length };
  if (tag.name === 'a') {
    const href = tag.attributes.href as string;
    if (href.startsWith('tg://user?id=')) entity.type = 'text_mention';
    else entity.url = href;
  }
  if (tag.name === 'code' && stack.at(-1)?.name === 'pre' && tag.attributes.class) {
    entity.type = 'pre';
    entity.language = tag.attributes.class.slice('language-'.length);
  }
  if (tag.name === 'blockquote' && 'expandable' in tag.attributes) entity.type = 'expandable_blockquote';
  return entity;
}

/**
 * Parses Telegram HTML into the text a user sees and its entities; throws {@link HtmlParseError}
 * with the Bot API's wording for anything Telegram would refuse.
 */
export function parseTelegramHtml(html: string): ParsedHtml {
  let text = '';
  const entities: ParsedEntity[] = [];
  const stack: OpenTag[] = [];
  for (let i = 0; i < html.length; i++) {
    const char = html[i] as string;
    if (char === '&') {
      const decoded = decodeEntity(html, i);
      if (!decoded) fail('character "&" must be escaped as &amp;', byteOffset(html, i));
      text += decoded.char;
      i = decoded.end - 1;
    } else if (char === '>') {
      fail('character ">" must be escaped as &gt;', byteOffset(html, i));
    } else if (char === '<') {
      const close = html.indexOf('>', i);
      if (close < 0) fail('unclosed start tag', byteOffset(html, i));
      const inner = html.slice(i + 1, close);
      if (inner.startsWith('/')) {
        const name = inner.slice(1).trim().toLowerCase();
        const open = stack.pop();
        if (!open || open.name !== name) {
          fail(
            `unmatched end tag "${name}"${open ? `, expected "</${open.name}>"` : ''}`,
            byteOffset(html, i),
          );
        }
        const entity = entityOf(open, text.length, stack);
        if (entity) entities.push(entity);
      } else {
        const nameMatch = /^([a-zA-Z][a-zA-Z0-9-]*)/.exec(inner);
        if (!nameMatch) fail('empty or invalid tag name', byteOffset(html, i));
        const name = (nameMatch[1] as string).toLowerCase();
        const attributes = parseAttributes(html, inner.slice(name.length), i);
        const tag = { name, start: text.length, attributes };
        checkStartTag(html, tag, i, stack);
        stack.push(tag);
      }
      i = close;
    } else {
      text += char;
    }
  }
  const open = stack.at(-1);
  if (open) {
    throw new HtmlParseError(
      `Bad Request: can't parse entities: can't find end tag corresponding to start tag "${open.name}"`,
    );
  }
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities };
}
