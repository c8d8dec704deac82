/**
 * The service clients' errors in the reader's language: English stays their message (for logs and
 * the audit trail), the catalog's words are what a German or Hebrew reader gets.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, UnreachableError, UpstreamError } from '../../src/core/errors';
import { FSI, PDI, translator } from '../../src/i18n/translate';
import { ServiceCircuit } from '../../src/services/bulkhead';
import { readCalendarError } from '../../src/services/calendar/errors';
import { mediaError } from '../../src/services/media/envelope';
import { serviceName, serviceNameIn } from '../../src/services/service-names';
import { notFound } from '../../src/services/toolhost/errors';

const de = translator('de');
const he = translator('he');

describe('service errors in the reader’s language', () => {
  it('keeps the English message for logs and gives the reader the catalog’s words', () => {
    const mapper = notFound((say) => ({ message: say.t('toolhost-api-job-not-found', 'ghost', 'mytool') }));
    const error = mapper(new UpstreamError('toolhost', 404, 'Not Found'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error?.message).toBe('Job ghost not found for tool mytool.');
    expect((error as NotFoundError).words?.(de).message).toBe(
      'Job ghost des Tools mytool wurde nicht gefunden.',
    );
    expect((error as NotFoundError).words?.(he).message).toContain(`${FSI}ghost${PDI}`);
  });

  it('gives an outage its hint in the reader’s language, and names the service there', () => {
    const circuit = new ServiceCircuit('toolhost');
    const now = Date.now();
    for (let i = 0; i < 10; i++) circuit.unanswered(now);
    let thrown: unknown;
    try {
      circuit.check(now);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnreachableError);
    const error = thrown as UnreachableError;
    expect(error.message).toMatch(/^The tool platform is not answering/);
    expect(error.hint).toBe('Try again in a minute; if it persists the service may be down.');
    const german = error.words?.(de);
    expect(german?.message).toMatch(/^Die Werkzeugplattform antwortet nicht/);
    expect(german?.hint).toBe(de.t('error-unreachable-hint'));
  });

  it('writes the calendar’s own sentences and the media host’s refusals in the reader’s language', () => {
    const said = readCalendarError(
      404,
      { code: 'rest_term_invalid', message: 'x' },
      { kind: 'category', ref: 9 },
    );
    expect(typeof said).toBe('function');
    if (typeof said !== 'function') return;
    expect(said(translator('en')).message).toBe('Category 9 does not exist on the calendar.');
    expect(said(de).message).toBe(`Kategorie 9 gibt es im Kalender nicht.`);
    const refused = mediaError(403, 'Invalid key', {}) as UpstreamError;
    expect(refused.message).toBe('The media host refused the API key (Invalid key).');
    expect(refused.words?.(de).hint).toBe(de.t('media-api-key-hint'));
  });

  it('names the services in each language', () => {
    expect(serviceName('toolhost')).toBe('the tool platform');
    expect(serviceName('other')).toBe('the other');
    expect(serviceNameIn(de, 'calendar')).toBe('der Kalender');
    expect(serviceNameIn(he, 'media')).toBe('שרת המדיה');
  });
});
