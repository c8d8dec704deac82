/**
 * Player (embed) addresses with options (specs/media/README.md §4): `c_poster` for a splash image,
 * `c1_file`/`c1_label`, `c2_file`/`c2_label`, … for remote subtitles, or `subtitle_json` for a JSON
 * list of subtitles. No API key is involved; every value is URL-encoded.
 */
import { UsageError } from '../../core/errors';

/** One remote subtitle. */
export interface Subtitle {
  /** Address of a `.srt` or `.vtt` file. */
  url: string;
  /** Language or any label. */
  label: string;
}

/** Options of {@link playerUrl}. */
export interface PlayerOptions {
  /** Address of a splash (poster) image. */
  poster?: string | undefined;
  /** Remote subtitles, numbered from 1 in order. */
  subtitles?: readonly Subtitle[] | undefined;
  /** Address of a JSON file listing subtitles (`[{ src, label, default? }]`). */
  subtitlesJson?: string | undefined;
}

/** Most subtitle pairs one address carries. */
export const MAX_SUBTITLES = 20;

function checkUrl(value: string, what: string): URL {
  if (!URL.canParse(value)) {
    throw new UsageError(`The ${what} \`${value}\` is not a URL.`, {
      hint: 'Give a full address such as https://example.org/file.vtt.',
    });
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`The ${what} must be an http(s) address, not ${url.protocol.replace(':', '')}.`);
  }
  return url;
}

/**
 * The embed address of a file on `playerHost` (e.g. `https://dood.to`), with the options. Every URL
 * is checked (http(s), subtitles `.srt`/`.vtt`); a problem is a {@link UsageError} naming it.
 */
export function playerUrl(playerHost: string, fileCode: string, options: PlayerOptions = {}): string {
  if (!/^[A-Za-z0-9]+$/.test(fileCode)) throw new UsageError(`\`${fileCode}\` is not a file code.`);
  const subtitles = options.subtitles ?? [];
  if (subtitles.length > 0 && options.subtitlesJson) {
    throw new UsageError('Give either --sub/--label pairs or --subtitles-json, not both.');
  }
  if (subtitles.length > MAX_SUBTITLES) {
    throw new UsageError(`At most ${MAX_SUBTITLES} subtitles fit in one player link.`, {
      hint: 'List them in a JSON file and use --subtitles-json.',
    });
  }
  const url = new URL(`/e/${fileCode}`, playerHost);
  if (options.poster) url.searchParams.set('c_poster', checkUrl(options.poster, 'poster').toString());
  subtitles.forEach((subtitle, index) => {
    const n = index + 1;
    const file = checkUrl(subtitle.url, `subtitle ${n}`);
    if (!/\.(srt|vtt)$/i.test(file.pathname)) {
      throw new UsageError(`Subtitle ${n} must be a .srt or .vtt file (got ${file.pathname}).`);
    }
    const label = subtitle.label.trim();
    if (!label) throw new UsageError(`Subtitle ${n} needs a label, e.g. --label English.`);
    url.searchParams.set(`c${n}_file`, file.toString());
    url.searchParams.set(`c${n}_label`, label);
  });
  if (options.subtitlesJson) {
    url.searchParams.set('subtitle_json', checkUrl(options.subtitlesJson, 'subtitles JSON').toString());
  }
  return url.toString();
}

/** The download page of a file on `playerHost`. */
export function downloadPageUrl(playerHost: string, fileCode: string): string {
  return new URL(`/d/${fileCode}`, playerHost).toString();
}

/** `https://dood.to` from `https://dood.to/d/xxx`; undefined for anything that is not a URL. */
export function playerHostOf(link: string): string | undefined {
  return URL.canParse(link) ? new URL(link).origin : undefined;
}
