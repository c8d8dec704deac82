/**
 * Player (embed) addresses with options (specs/media/README.md §4): `c_poster` for a splash image,
 * `c1_file`/`c1_label`, `c2_file`/`c2_label`, … for remote subtitles, or `subtitle_json` for a JSON
 * list of subtitles. No API key is involved; every value is URL-encoded.
 */
import { UsageError } from '../../core/errors';
import type { Translator } from '../../i18n/translate';

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

/** `value` as an address; `what` names it in the reader's language (`poster`, `subtitle 2`). */
function checkUrl(value: string, what: (say: Translator) => string): URL {
  if (!URL.canParse(value)) {
    throw UsageError.inWords((say) => ({
      message: say.t('media-api-not-a-url', what(say), value),
      hint: say.t('media-api-not-a-url-hint'),
    }));
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const scheme = url.protocol.replace(':', '');
    throw UsageError.inWords((say) => ({ message: say.t('media-api-not-http', what(say), scheme) }));
  }
  return url;
}

/**
 * The embed address of a file on `playerHost` (e.g. `https://dood.to`), with the options. Every URL
 * is checked (http(s), subtitles `.srt`/`.vtt`); a problem is a {@link UsageError} naming it.
 */
export function playerUrl(playerHost: string, fileCode: string, options: PlayerOptions = {}): string {
  if (!/^[A-Za-z0-9]+$/.test(fileCode)) {
    throw UsageError.inWords((say) => ({ message: say.t('media-api-not-a-file-code', fileCode) }));
  }
  const subtitles = options.subtitles ?? [];
  if (subtitles.length > 0 && options.subtitlesJson) {
    throw UsageError.inWords((say) => ({ message: say.t('media-api-subtitles-both') }));
  }
  if (subtitles.length > MAX_SUBTITLES) {
    throw UsageError.inWords((say) => ({
      message: say.t('media-api-too-many-subtitles', MAX_SUBTITLES),
      hint: say.t('media-api-too-many-subtitles-hint'),
    }));
  }
  const url = new URL(`/e/${fileCode}`, playerHost);
  if (options.poster)
    url.searchParams.set(
      'c_poster',
      checkUrl(options.poster, (say) => say.t('media-api-what-poster')).toString(),
    );
  subtitles.forEach((subtitle, index) => {
    const n = index + 1;
    const file = checkUrl(subtitle.url, (say) => say.t('media-api-what-subtitle', n));
    if (!/\.(srt|vtt)$/i.test(file.pathname)) {
      const path = file.pathname;
      throw UsageError.inWords((say) => ({ message: say.t('media-api-subtitle-not-srt-vtt', n, path) }));
    }
    const label = subtitle.label.trim();
    if (!label) throw UsageError.inWords((say) => ({ message: say.t('media-api-subtitle-needs-label', n) }));
    url.searchParams.set(`c${n}_file`, file.toString());
    url.searchParams.set(`c${n}_label`, label);
  });
  if (options.subtitlesJson) {
    url.searchParams.set(
      'subtitle_json',
      checkUrl(options.subtitlesJson, (say) => say.t('media-api-what-subtitles-json')).toString(),
    );
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
