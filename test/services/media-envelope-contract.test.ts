/**
 * The media client's envelope rules against every documented envelope of specs/media/README.md
 * (§1 success envelope, §2 error table with its sources): each is read as the README says clients
 * must (`status` in the body is the real result code, as number or string; success only when
 * `status == 200` and `msg == "OK"`), and each error becomes Deckhand's own specific message.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError, UpstreamError } from '../../src/core/errors';
import { EnvelopeSchema, isRateLimited, mediaError, statusOf } from '../../src/services/media/envelope';

describe('media envelope (specs/media/README.md)', () => {
  it('reads the success envelope of §1, status a number', () => {
    const envelope = EnvelopeSchema.parse({
      msg: 'OK',
      server_time: '2024-06-01 10:00:00',
      status: 200,
      result: [],
    });
    expect(statusOf(envelope)).toBe(200);
    expect(isRateLimited(envelope)).toBe(false);
  });

  it.each([
    [
      'rate limited, status a string, no server_time (D)',
      { msg: 'Too Many Requests', status: '429' },
      UpstreamError,
      429,
      /rate-limiting/,
    ],
    [
      'bad key "Invalid key" (Rann-Studio/Doodstream src/Request.js)',
      { msg: 'Invalid key', server_time: '2024-06-01 10:00:00', status: 403 },
      UpstreamError,
      403,
      /refused the API key/,
    ],
    [
      'bad key "Wrong Auth" (XFileSharing envelope)',
      { msg: 'Wrong Auth', server_time: '2024-06-01 10:00:00', status: 403 },
      UpstreamError,
      403,
      /refused the API key/,
    ],
    [
      'key missing (Rann-Studio/Doodstream src/Request.js)',
      { msg: 'No API key passed', status: 403 },
      UpstreamError,
      403,
      /refused the API key/,
    ],
    [
      'DMCA-disabled file (Ns-AnoNymouS/doodstream plugins/open_file.py)',
      { msg: 'Disabled', status: 451 },
      UpstreamError,
      451,
      /copyright/,
    ],
    [
      'remote URL already queued (plugins/remote_upload.py)',
      { msg: 'Already in queue', status: 400 },
      UpstreamError,
      400,
      /Already in queue/,
    ],
    [
      'not found or not your file (item status)',
      { msg: 'Not found or not your file', status: 200 },
      NotFoundError,
      undefined,
      /was not found/,
    ],
  ])('%s', (_label, body, kind, status, message) => {
    const envelope = EnvelopeSchema.parse(body);
    if (body.status === '429') expect(isRateLimited(envelope)).toBe(true);
    const error = mediaError(statusOf(envelope), envelope.msg, { fileCode: 'abc123' });
    expect(error).toBeInstanceOf(kind);
    if (status !== undefined) expect((error as UpstreamError).status).toBe(status);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/NaN|undefined/);
  });

  it('an envelope without status is no success and names no NaN', () => {
    const envelope = EnvelopeSchema.parse({ msg: 'Something odd' });
    expect(Number.isNaN(statusOf(envelope))).toBe(true);
    const error = mediaError(statusOf(envelope), envelope.msg);
    expect(error.message).toBe('The media host said: Something odd');
    expect((error as UpstreamError).status).toBe(502);
  });
});
