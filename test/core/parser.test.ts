import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindTokens } from '../../src/core/bind';
import { UsageError } from '../../src/core/errors';
import { tokenize } from '../../src/core/tokenize';
import { translator } from '../../src/i18n/translate';
import { sampleRegistry } from './fixtures';

const { registry } = sampleRegistry();

function parse(line: string, boundTool?: string) {
  const { command, rest } = registry.resolve(tokenize(line));
  return { name: command.name, args: bindTokens(command, rest, boundTool ? { boundTool } : {}) };
}

function usageMessage(line: string): string {
  try {
    parse(line);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`expected a usage error for ${line}`);
}

describe('tokenize', () => {
  it('splits words and keeps quoted groups, including typographic quotes', () => {
    expect(tokenize(`/deploy mytool --description "new release" --x 'a b' “c d”`).map((t) => t.text)).toEqual(
      ['/deploy', 'mytool', '--description', 'new release', '--x', 'a b', 'c d'],
    );
  });

  it('keeps escaped quotes and marks quoted words', () => {
    const tokens = tokenize(`say "he said \\"hi\\"" --flag`);
    expect(tokens[1]).toEqual({ text: 'he said "hi"', quoted: true });
    expect(tokens[2]).toEqual({ text: '--flag', quoted: false });
  });

  it('rejects an unclosed quote with a usage error', () => {
    expect(() => tokenize('/deploy "mytool')).toThrow(UsageError);
  });
});

describe('binding words to a command', () => {
  it('reads positionals, boolean flags and --k=v', () => {
    expect(parse('/deploy mytool --force-build --description=hello')).toEqual({
      name: 'deploy',
      args: { tool: 'mytool', forceBuild: true, forceRun: false, description: 'hello' },
    });
  });

  it('resolves subcommands and repeated flags into arrays', () => {
    const { name, args } = parse(
      '/build start mytool https://example.org/r.git --env A=1 --env B=2 --ref main',
    );
    expect(name).toBe('build start');
    expect(args).toMatchObject({
      tool: 'mytool',
      sourceUrl: 'https://example.org/r.git',
      env: ['A=1', 'B=2'],
      ref: 'main',
    });
  });

  it('coerces numbers and fills the bound tool when <tool> is left out', () => {
    expect(parse('/build list --limit 5', 'demo').args).toEqual({ tool: 'demo', limit: 5 });
    expect(parse('/build list mytool', 'demo').args).toEqual({ tool: 'mytool', limit: 10 });
  });

  it('treats a quoted word as a positional even when it starts with --', () => {
    expect(parse('/deploy mytool --description "--not-a-flag"').args.description).toBe('--not-a-flag');
  });

  it.each([
    ['/nope', /Unknown command \/nope/],
    ['/build', /\/build needs a subcommand/],
    ['/build frobnicate mytool', /Unknown subcommand `frobnicate`/],
    ['/deploy', /Missing <tool>/],
    ['/deploy mytool extra', /Too many arguments/],
    ['/deploy mytool --colour red', /Unknown option --colour/],
    ['/deploy mytool --description', /--description needs a value/],
    ['/deploy mytool --description=', /--description needs a value/],
    ['/build list mytool --limit=', /--limit needs a value/],
    ['/deploy mytool --force-build=', /Invalid --force-build/],
    ['/deploy MyTool!', /Invalid <tool>: must be a tool name/],
    ['/build start mytool not-a-url', /Invalid <source_url>: must be an http\(s\) URL/],
    ['/build start mytool https://x.org/r --env lowercase', /Invalid --env/],
    ['/build list mytool --limit many', /Invalid --limit/],
    ['/build list mytool --limit 0', /Invalid --limit/],
    ['/deploy mytool --force-build=maybe', /Invalid --force-build/],
    ['/deploy mytool --description a --description b', /given twice/],
  ])('%s → a usage error', (line, expected) => {
    expect(usageMessage(line)).toMatch(expected);
  });

  it('puts the usage line and an example in every argument error', () => {
    try {
      parse('/build start mytool nope');
    } catch (error) {
      const usage = error as UsageError;
      expect(usage.usage).toContain('/build start <tool> <source_url>');
      expect(usage.hint).toContain('Example: /build start mytool https://example.org/repo.git');
      return;
    }
    throw new Error('expected an error');
  });

  it.each([
    ['/deploy mytool extra', 'de', 'Zu viele Argumente: `extra` bleibt übrig.'],
    ['/deploy mytool extra words', 'de', 'Zu viele Argumente: `extra words` bleiben übrig.'],
    ['/deploy mytool --colour red', 'de', 'Unbekannte Option --colour für /deploy.'],
    ['/deploy mytool --description a --description b', 'de', 'Die Option --description steht doppelt da.'],
    ['/deploy mytool extra', 'en', 'Too many arguments: `extra` is left over.'],
    ['/deploy mytool extra words', 'en', 'Too many arguments: `extra words` are left over.'],
  ])("%s answers in the reader's language (%s)", (line, language, expected) => {
    try {
      parse(line);
    } catch (error) {
      expect((error as UsageError).words?.(translator(language)).message).toBe(expected);
      return;
    }
    throw new Error('expected an error');
  });
});

describe('parser on arbitrary input (property)', () => {
  const pieces = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '/deploy',
      '/build',
      'start',
      'list',
      'delete',
      'mytool',
      '--force-build',
      '--env',
      '--limit',
      '--ref=',
      '"',
      "'",
      '“',
      '\\',
      '--',
      '=',
      ' ',
      '\n',
      '\t',
    ),
  );

  it('never throws anything but a usage error, and otherwise yields a known command', () => {
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }),
        fc.option(fc.constantFrom('demo', 'mytool')),
        (parts, bound) => {
          const line = parts.join(' ');
          try {
            const result = parse(line, bound ?? undefined);
            expect(registry.get(result.name)).toBeDefined();
            expect(typeof result.args).toBe('object');
          } catch (error) {
            if (!(error instanceof UsageError)) throw error;
            expect(error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
