/** The HTML pages of the emulated web host: the authorize page, the application settings page. */
import type { SandboxApp } from './state';

/** Escapes text for HTML. */
export function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
fieldset{border:1px solid #ccc;border-radius:6px}button{font-size:1rem;padding:.4rem 1rem;margin-right:.5rem}</style>
</head><body><main>${body}</main></body></html>`;
}

/** What the authorize page shows and posts back. */
export interface AuthorizePageInput {
  app: SandboxApp;
  users: readonly string[];
  suggested?: string | undefined;
  scopes: string[];
  hidden: Record<string, string>;
}

/** The consent page: who is signed in, the scopes asked (each may be unticked), Approve and Deny. */
export function authorizePage(input: AuthorizePageInput): string {
  const options = input.users
    .map(
      (login) =>
        `<option value="${html(login)}"${login === input.suggested ? ' selected' : ''}>${html(login)}</option>`,
    )
    .join('');
  const scopes = input.scopes.length
    ? input.scopes
        .map(
          (scope, i) =>
            `<div><input type="checkbox" id="scope-${i}" name="scope" value="${html(scope)}" checked> <label for="scope-${i}"><code>${html(scope)}</code></label></div>`,
        )
        .join('')
    : '<p>Read-only access to public information.</p>';
  const hidden = Object.entries(input.hidden)
    .map(([name, value]) => `<input type="hidden" name="${html(name)}" value="${html(value)}">`)
    .join('');
  return page(
    `Authorize ${input.app.name}`,
    `<h1>Authorize ${html(input.app.name)}</h1>
<p>This sandbox stands in for the source host's sign-in and consent page.</p>
<form method="post" action="/login/oauth/authorize">${hidden}
<p><label for="login">Signed in as</label> <select id="login" name="login">${options}</select></p>
<fieldset><legend>${html(input.app.name)} would like these permissions</legend>${scopes}</fieldset>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>`,
  );
}

/** An error page of the web host (unknown application, bad parameters). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${html(title)}</h1><p>${html(message)}</p>`);
}

/** The application's settings page, where a user revokes its access. */
export function settingsPage(app: SandboxApp, users: readonly string[], tokens: number): string {
  const options = users.map((login) => `<option value="${html(login)}">${html(login)}</option>`).join('');
  return page(
    `${app.name} settings`,
    `<h1>${html(app.name)}</h1><p>Client id <code>${html(app.clientId)}</code>; ${tokens} active token(s).</p>
<form method="post"><p><label for="login">Signed in as</label> <select id="login" name="login">${options}</select></p>
<button type="submit">Revoke access</button></form>`,
  );
}
