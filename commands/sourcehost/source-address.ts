/**
 * What the source-host link commands share: the addresses the source host shows a repository's
 * commits and pull requests at (`https://<host>/<owner>/<repo>/commit/<sha>`, `…/pull/<n>`), the
 * short forms (`owner/repo@SHA`, `owner/repo#12`), and reading as the person who asked.
 */
import { z } from 'zod';
import type { Invocation } from '../../src/core/command';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import type { LinkRecogniser } from '../../src/core/unfurls';
import { type MessageKey, type Translator, translator } from '../../src/i18n/translate';
import type { SourcehostServices } from './context';

const NAME = '[A-Za-z0-9_.-]{1,100}';

/** One kind of thing with an address on the source host. */
export interface AddressKind {
  /** The path word before the id (`commit`, `pull`). */
  path: string;
  /** The id's pattern (`[0-9a-f]{7,40}`, `\d{1,9}`). */
  id: string;
  /** The separator of the short form (`@`, `#`). */
  short: string;
  /** The catalog message describing the argument, for its help. */
  descriptionKey: string;
  /** The catalog key of what a valid value is, for its error. */
  invalid: MessageKey;
}

/** Where a thing is: the host origin of an address (absent for a short form), repository and id. */
export interface SourceAddress {
  origin?: string;
  owner: string;
  repo: string;
  id: string;
}

function addressPattern(kind: AddressKind, flags: string): RegExp {
  return new RegExp(
    `\\b(https?://[\\w.-]+(?::\\d+)?)/(${NAME})/(${NAME})/${kind.path}/(${kind.id})(?![\\w-])`,
    flags,
  );
}

function shortPattern(kind: AddressKind): RegExp {
  return new RegExp(`^(${NAME})/(${NAME})${kind.short}(${kind.id})$`, 'i');
}

/** The argument that takes an address or a short form of `kind`. */
export function addressArgument(kind: AddressKind) {
  return z
    .string()
    .refine((value) => shortPattern(kind).test(value) || addressPattern(kind, 'i').test(value), {
      message: translator('en').t(kind.invalid),
    })
    .meta({ invalid: kind.invalid })
    .describe(kind.descriptionKey);
}

/** The parts of an argument {@link addressArgument} accepted. */
export function parseAddress(kind: AddressKind, value: string): SourceAddress {
  const short = shortPattern(kind).exec(value);
  if (short) return { owner: short[1] as string, repo: short[2] as string, id: short[3] as string };
  const url = addressPattern(kind, 'i').exec(value) as RegExpExecArray;
  const [, origin, owner, repo, id] = url as unknown as [string, string, string, string, string];
  return { origin: origin.toLowerCase(), owner, repo, id };
}

/** The addresses of `kind` in a message, each answered by `/<command> <address>`. */
export function addressLinks(
  kind: AddressKind,
  command: string,
  subject: (a: SourceAddress) => string,
): LinkRecogniser {
  return (text) =>
    [...text.matchAll(addressPattern(kind, 'gi'))].map((match) => {
      const [address, , owner, repo, id] = match as unknown as [string, string, string, string, string];
      return { text: address, subject: subject({ owner, repo, id }), line: `/${command} ${address}` };
    });
}

/**
 * Reads `address` on the source host as the person who asked (their linked account, else
 * anonymously): an address on another host is refused, and something this reader cannot see (404,
 * or 422 for an unknown commit) is a "no such … that you can see" answer (`missing` says it, with
 * the repository and whether the reader's own account was used).
 */
export async function readAsAsker<T>(
  services: SourcehostServices,
  invocation: Invocation,
  address: SourceAddress,
  missing: (say: Translator, repository: string, linked: boolean) => string,
  read: (client: ReturnType<SourcehostServices['accounts']['sourcehost']['anonymous']>) => Promise<T>,
): Promise<T> {
  const sourcehost = services.accounts.sourcehost;
  const home = new URL(sourcehost.webUrl).origin.toLowerCase();
  if (address.origin !== undefined && address.origin !== home) {
    throw UsageError.inWords((say) => ({ message: say.t('source-link-elsewhere', home) }));
  }
  const linked = await services.accounts.credentials.source(invocation.user);
  const client = linked ? sourcehost.forToken(linked.token) : sourcehost.anonymous();
  try {
    return await read(client);
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 404 || error.status === 422)) {
      const repository = `${address.owner}/${address.repo}`;
      const words = (say: Translator) => ({
        message: missing(say, repository, Boolean(linked)),
        ...(linked ? {} : { hint: say.t('source-private-hint') }),
      });
      const english = words(translator('en'));
      const notFound = new NotFoundError(english.message, english.hint);
      notFound.words = words;
      throw notFound;
    }
    throw error;
  }
}
