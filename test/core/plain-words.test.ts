import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildMessageInWords, formatUtc, sentences } from '../../commands/format';
import { lfsChoice } from '../../commands/sourcehost/source-cards';
import { tokenExpiry } from '../../commands/toolhost/token';
import { issuePhrase } from '../../src/core/issue-words';
import { plural } from '../../src/core/plural';
import { upstreamWords } from '../../src/core/upstream-words';
import { translator } from '../../src/i18n/translate';
import { ISO_TIME, SCAN_RULES, scan } from '../support/message-scan';

function phrase(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return issuePhrase(result.error.issues[0] as z.core.$ZodIssue, input);
}

describe('validator messages in Deckhand’s words', () => {
  it.each([
    [z.string().min(1), '', "can't be empty"],
    [z.string().min(3), 'ab', 'needs at least 3 characters'],
    [z.string().max(1), 'ab', 'can be at most 1 character long'],
    [z.number().int(), 2.5, 'must be a whole number, e.g. 5'],
    [z.number(), 'five', 'must be a number, e.g. 5'],
    [z.number().min(1), 0, 'must be at least 1'],
    [z.number().max(5), 9, 'must be at most 5'],
    [z.enum(['none', 'all']), 'nnoe', 'must be one of none, all (did you mean none?)'],
    [z.url(), 'nope', 'must be a web address such as https://example.org'],
    [z.array(z.string()).min(2), ['a'], 'needs at least 2 values'],
  ] as const)('%#: %j', (schema, input, expected) => {
    const said = phrase(schema as z.ZodType, input);
    expect(said).toBe(expected);
    expect(scan(said, SCAN_RULES)).toEqual([]);
  });

  it('keeps a message the schema wrote itself', () => {
    expect(phrase(z.string().regex(/^x/, 'must start with x'), 'y')).toBe('must start with x');
  });
});

describe('upstream messages in Deckhand’s words', () => {
  it.each([
    [
      "Validation error at since: Value error, Invalid time: expected 30m, 2h or 2026-11-22. Received value: 'soon'",
      'The value of since (`soon`) is not a time the platform understands; use 30m, 2h or 2026-11-22.',
    ],
    [
      'field replicas: Input should be a valid integer, unable to interpret input',
      'The value of replicas should be a valid integer.',
    ],
    ['field command: Field required', 'The value of command is required.'],
    [
      '1 validation error for CommonJob\n  Value error, mount: none needs an image from the build service [type=value_error, input_type=dict]',
      'Mount: none needs an image from the build service.',
    ],
    [
      "Deploy token already exists. Use the 'refresh' subcommand or PUT /tool/mytool/deployment/token to refresh it.",
      "Deploy token already exists. Use the 'refresh' command.",
    ],
    ['Tool nosuchtool does not exist', 'Tool nosuchtool does not exist.'],
  ])('%s', (said, expected) => {
    expect(upstreamWords(said)).toBe(expected);
    expect(scan(upstreamWords(said), SCAN_RULES)).toEqual([]);
  });

  it('turns the builds service’s CLI advice into the Deckhand command', () => {
    const message =
      'Tasks Completed: 1 (Failed: 1, Cancelled 0), Skipped: 0. Check the logs with `toolforge build logs mytool-buildpacks-pipelinerun-abc`';
    expect(buildMessageInWords(message, 'mytool')).toBe(
      'Tasks Completed: 1 (Failed: 1, Cancelled 0), Skipped: 0. See its log with /build logs mytool mytool-buildpacks-pipelinerun-abc.',
    );
  });

  it('never glues two statuses into one sentence', () => {
    expect(
      sentences([
        'Found an existing build x for r@main, skipping the build',
        'Job web is already up to date',
      ]),
    ).toBe('Found an existing build x for r@main, skipping the build. Job web is already up to date.');
    expect(sentences([undefined, 'Done.', ''])).toBe('Done.');
  });
});

describe('counts, dates and choices', () => {
  it('writes plurals with one helper', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(4, 'category')).toBe('4 categories');
    expect(plural(0, 'tag')).toBe('0 tags');
    expect(plural(2, 'box')).toBe('2 boxes');
    expect(plural(1200, 'view')).toBe('1,200 views');
  });

  it('computes how long a deploy token is still valid from its creation date', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const on = (iso: string) => formatUtc(new Date(iso));
    expect(tokenExpiry(translator('en'), '2026-10-23T12:00:00Z', now)).toBe(
      `It expires on ${on('2027-10-23T12:00:00Z')}, in 334 days.`,
    );
    expect(tokenExpiry(translator('en'), '2025-11-22T12:00:00Z', now)).toBe(
      `It expired on ${on('2026-11-22T12:00:00Z')}: refresh it with /token refresh.`,
    );
    expect(tokenExpiry(translator('en'), '2025-11-24T00:00:00Z', now)).toBe(
      `It expires on ${on('2026-11-24T00:00:00Z')}, in 1 day.`,
    );
    expect(tokenExpiry(translator('en'), undefined, now)).toBe(
      'A deploy token lasts 365 days from its creation.',
    );
  });

  it('shows an undecided Git LFS choice as not chosen, never as false', () => {
    expect(lfsChoice(false)).toBe('Git LFS not chosen yet (see /source import lfs)');
    expect(lfsChoice('undecided')).toBe('Git LFS not chosen yet (see /source import lfs)');
    expect(lfsChoice(true)).toBe('kept with Git LFS');
    expect(lfsChoice('opt_out')).toBe('removed from the history');
  });
});

describe('the message scan', () => {
  it.each([
    ['4 categorys', 'wrong plural'],
    ['1 files', 'wrong plural'],
    ['Serving: 2 replica(s)', 'wrong plural'],
    ['Too small: expected string to have >=1 characters', 'validator phrase'],
    ['Validation error at since: Value error, Invalid time', 'validator phrase'],
    ['or PUT /tool/mytool/deployment/token to refresh it', 'HTTP path'],
    ['Check the logs with `toolforge build logs x`', 'other tool’s CLI as advice'],
  ])('catches %s', (text, rule) => {
    expect(scan(text, SCAN_RULES).map((p) => p.rule)).toContain(rule);
  });

  it('lets plain messages through, and spots raw ISO times', () => {
    const plainText = 'Built 3 images in 2 days; 1 file left. Open https://x.org/tool/a/b or http(s) links.';
    expect(scan(plainText, SCAN_RULES)).toEqual([]);
    expect(scan('Finished at 2026-11-23T17:55:12.582Z', [ISO_TIME])).toHaveLength(1);
  });
});
