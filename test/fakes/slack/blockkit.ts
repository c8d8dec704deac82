/**
 * The Block Kit limits Slack enforces (it answers `invalid_blocks` / `invalid_attachments` /
 * `invalid_arguments` when one is broken), so a message the real platform would refuse fails here
 * too. Limits from Slack's Block Kit reference (blocks, text objects, button, confirm, modal).
 */

type Json = Record<string, unknown>;

function text(
  problems: string[],
  where: string,
  value: unknown,
  max: number,
  kinds = ['plain_text', 'mrkdwn'],
): void {
  const object = value as Json | undefined;
  if (!object || typeof object !== 'object') {
    problems.push(`${where}: missing text object`);
    return;
  }
  if (!kinds.includes(String(object.type)))
    problems.push(`${where}: text type ${String(object.type)} not allowed`);
  const body = object.text;
  if (typeof body !== 'string' || body.length < 1) problems.push(`${where}: empty text`);
  else if (body.length > max) problems.push(`${where}: ${body.length} characters > ${max}`);
}

function button(problems: string[], where: string, element: Json) {
  text(problems, `${where}.text`, element.text, 75, ['plain_text']);
  if (typeof element.action_id === 'string' && element.action_id.length > 255) {
    problems.push(`${where}: action_id > 255`);
  }
  if (typeof element.value === 'string' && element.value.length > 2000)
    problems.push(`${where}: value > 2000`);
  if (typeof element.url === 'string' && element.url.length > 3000) problems.push(`${where}: url > 3000`);
  if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
    problems.push(`${where}: style ${String(element.style)}`);
  }
  const confirm = element.confirm as Json | undefined;
  if (confirm) {
    text(problems, `${where}.confirm.title`, confirm.title, 100, ['plain_text']);
    text(problems, `${where}.confirm.text`, confirm.text, 300);
    text(problems, `${where}.confirm.confirm`, confirm.confirm, 30, ['plain_text']);
    text(problems, `${where}.confirm.deny`, confirm.deny, 30, ['plain_text']);
  }
}

function block(problems: string[], where: string, value: unknown, inModal: boolean) {
  const b = value as Json;
  const actionIds = new Set<string>();
  switch (b.type) {
    case 'header':
      text(problems, `${where}.text`, b.text, 150, ['plain_text']);
      break;
    case 'section': {
      if (!b.text && !b.fields) problems.push(`${where}: section needs text or fields`);
      if (b.text) text(problems, `${where}.text`, b.text, 3000);
      const fields = (b.fields ?? []) as unknown[];
      if (fields.length > 10) problems.push(`${where}: ${fields.length} fields > 10`);
      for (const [i, f] of fields.entries()) text(problems, `${where}.fields[${i}]`, f, 2000);
      break;
    }
    case 'context': {
      const elements = (b.elements ?? []) as unknown[];
      if (elements.length < 1 || elements.length > 10) problems.push(`${where}: ${elements.length} elements`);
      for (const [i, e] of elements.entries()) text(problems, `${where}.elements[${i}]`, e, 3000);
      break;
    }
    case 'actions': {
      const elements = (b.elements ?? []) as Json[];
      if (elements.length < 1 || elements.length > 25) problems.push(`${where}: ${elements.length} elements`);
      elements.forEach((e, i) => {
        if (e.type !== 'button') problems.push(`${where}.elements[${i}]: unexpected ${String(e.type)}`);
        button(problems, `${where}.elements[${i}]`, e);
        const id = String(e.action_id);
        if (actionIds.has(id)) problems.push(`${where}: duplicate action_id ${id}`);
        actionIds.add(id);
      });
      break;
    }
    case 'input': {
      if (!inModal) problems.push(`${where}: input blocks belong in modals`);
      text(problems, `${where}.label`, b.label, 2000, ['plain_text']);
      if (b.hint) text(problems, `${where}.hint`, b.hint, 2000, ['plain_text']);
      const element = b.element as Json;
      if (element?.type !== 'plain_text_input')
        problems.push(`${where}: unexpected input ${String(element?.type)}`);
      if (element?.placeholder)
        text(problems, `${where}.placeholder`, element.placeholder, 150, ['plain_text']);
      break;
    }
    case 'divider':
      break;
    default:
      problems.push(`${where}: unknown block type ${String(b.type)}`);
  }
  if (typeof b.block_id === 'string' && b.block_id.length > 255) problems.push(`${where}: block_id > 255`);
}

/** Problems of a message's `blocks` and `attachments` (already parsed), as Slack would report them. */
export function checkMessage(message: { blocks?: unknown; attachments?: unknown }): string[] {
  const problems: string[] = [];
  const top = (message.blocks ?? []) as unknown[];
  const attachments = (message.attachments ?? []) as Json[];
  let total = top.length;
  for (const [i, b] of top.entries()) block(problems, `blocks[${i}]`, b, false);
  attachments.forEach((a, ai) => {
    const blocks = (a.blocks ?? []) as unknown[];
    total += blocks.length;
    for (const [i, b] of blocks.entries()) block(problems, `attachments[${ai}].blocks[${i}]`, b, false);
  });
  if (total > 50) problems.push(`${total} blocks > 50`);
  return problems;
}

/** Problems of a modal view passed to `views.open`. */
export function checkView(view: Json): string[] {
  const problems: string[] = [];
  if (view.type !== 'modal') problems.push(`view type ${String(view.type)}`);
  text(problems, 'title', view.title, 24, ['plain_text']);
  if (view.submit) text(problems, 'submit', view.submit, 24, ['plain_text']);
  if (view.close) text(problems, 'close', view.close, 24, ['plain_text']);
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000) {
    problems.push('private_metadata > 3000');
  }
  const blocks = (view.blocks ?? []) as unknown[];
  if (blocks.length > 100) problems.push(`${blocks.length} blocks > 100`);
  for (const [i, b] of blocks.entries()) block(problems, `blocks[${i}]`, b, true);
  return problems;
}

/**
 * Problems of `chat.unfurl`'s `unfurls`: an object keyed by the URLs of the message, each value an
 * attachment (blocks checked as a message's).
 */
export function checkUnfurls(body: Json): string[] {
  const unfurls = body.unfurls;
  if (!unfurls || typeof unfurls !== 'object' || Array.isArray(unfurls))
    return ['chat.unfurl: missing_unfurls'];
  const problems: string[] = [];
  for (const [url, value] of Object.entries(unfurls as Json)) {
    if (!/^https?:\/\//.test(url)) problems.push(`chat.unfurl: key ${url} is not a URL`);
    for (const problem of checkMessage({ attachments: [value] }))
      problems.push(`chat.unfurl: ${url}: ${problem}`);
  }
  if (!body.ts && !body.unfurl_id) problems.push('chat.unfurl: neither ts nor unfurl_id');
  return problems;
}

/**
 * Problems of a Home tab view passed to `views.publish`: type `home`, at most 100 blocks (Block Kit's
 * limit for every view), no modal-only parts (title, submit, close) and no input blocks.
 */
export function checkHomeView(view: Json): string[] {
  const problems: string[] = [];
  if (view.type !== 'home') problems.push(`view type ${String(view.type)} (views.publish takes home views)`);
  for (const key of ['title', 'submit', 'close']) {
    if (view[key] !== undefined) problems.push(`a home view has no ${key}`);
  }
  if (typeof view.private_metadata === 'string' && view.private_metadata.length > 3000) {
    problems.push('private_metadata > 3000');
  }
  const blocks = (view.blocks ?? []) as unknown[];
  if (!Array.isArray(view.blocks)) problems.push('view.blocks is missing');
  if (blocks.length > 100) problems.push(`${blocks.length} blocks > 100`);
  for (const [i, b] of blocks.entries()) block(problems, `blocks[${i}]`, b, false);
  return problems;
}
