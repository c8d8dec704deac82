/** The plain, accessible HTML frame of Deckhand's own pages. All text passed in is escaped. */
import { type Translator, translator } from '../../i18n/translate';

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A complete page: `title` (escaped) and `body` (already HTML). */
export function pageHtml(title: string, body: string, say: Translator = translator('en')): string {
  return `<!doctype html>
<html lang="${say.language}" dir="${say.direction}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Deckhand</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1f23}
label{display:block;margin-top:1rem;font-weight:600}input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}
button{margin-top:1rem;font-size:1rem;padding:.5rem 1.2rem}[role=alert]{border-left:4px solid #b00020;padding:.5rem 1rem;background:#fdecea}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A paragraph of escaped text. */
export function p(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}
