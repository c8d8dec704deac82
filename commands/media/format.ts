/** Formatting and argument helpers shared by the media commands. */
import { z } from 'zod';
import { type MessageKey, type Translator, t } from '../../src/i18n/translate';

/**
 * `734.0 MB`, `12.5 KB`, `512 B` (powers of 1024, as file managers show them), the number written
 * the reader's way (`734,0 MB` in German).
 */
export function formatBytes(bytes: number, say?: Translator): string {
  const digits = (value: number, fraction: number) =>
    say && say.language !== 'en'
      ? new Intl.NumberFormat(say.language, {
          minimumFractionDigits: fraction,
          maximumFractionDigits: fraction,
        }).format(value)
      : value.toFixed(fraction);
  if (!Number.isFinite(bytes) || bytes < 1024) return `${digits(Math.max(0, Math.round(bytes || 0)), 0)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${digits(value, 1)} ${units[unit]}`;
}

/** `1:02:03`, `4:05` from seconds. */
export function formatLength(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** `45%` of a known total. */
export function percent(part: number, total: number | undefined): string | undefined {
  if (!total || total <= 0) return undefined;
  return `${Math.min(100, Math.floor((part / total) * 100))}%`;
}

/** A file code as the host makes them (letters and digits). */
export const fileCode = z
  .string()
  .regex(/^[A-Za-z0-9]{4,40}$/, t('en', 'media-file-code-invalid'))
  .meta({ invalid: 'media-file-code-invalid' })
  .describe('opt-code-media-info');

/** A folder id (digits; 0 is the root). */
export const folderId = z
  .string()
  .regex(/^\d{1,20}$/, t('en', 'media-folder-id-invalid'))
  .meta({ invalid: 'media-folder-id-invalid' })
  .describe('opt-folder');

/** Words of a title or a search term given without quotes, joined back; `description` is the catalog's. */
export const words = (description: MessageKey, max: number) =>
  z
    .array(z.string())
    .min(1, t('en', 'media-words-give', t('en', description)))
    .transform((parts) => parts.join(' ').trim())
    .pipe(
      z
        .string()
        .min(1, t('en', 'media-words-give', t('en', description)))
        .max(max, t('en', 'media-too-long', max))
        .refine((s) => !/[\r\n]/.test(s), t('en', 'media-one-line')),
    )
    .describe(description);

/** An http(s) URL (remote upload sources, posters, subtitles). */
export const webUrl = (example: string) =>
  z.url({ protocol: /^https?$/, message: t('en', 'media-url-invalid', example) });
