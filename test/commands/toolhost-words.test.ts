/**
 * The build, web service and digest words in the reader's language: English as it always was, German
 * and Hebrew from the catalogs (Hebrew isolating the names and ids it mixes in).
 */
import { describe, expect, it } from 'vitest';
import { buildCard } from '../../commands/toolhost/build-card';
import { webserviceCard } from '../../commands/toolhost/webservice-card';
import { digestWords } from '../../src/core/digest-view';
import { FSI, PDI, translator } from '../../src/i18n/translate';
import type { Build, Job } from '../../src/services/toolhost';

const build = {
  build_id: 'mytool-buildpacks-pipelinerun-abcde',
  status: 'BUILD_RUNNING',
  message: '',
  parameters: { source_url: 'https://gitlab.example/mytool', ref: 'main' },
} as unknown as Build;

const web = {
  name: 'webservice',
  cmd: 'web',
  imagename: 'tool-mytool/web:latest',
  job_type: 'continuous',
  publish: '/',
  port: 8000,
  status: { short: 'running' },
} as unknown as Job;

describe('a build card', () => {
  it('is the same English as before', () => {
    const card = buildCard('mytool', build, 'Build started.');
    expect(card.title).toBe('Build of mytool');
    expect(card.text).toBe('Build started.\nBuild running.');
    expect(card.footer).toBe('build mytool-buildpacks-pipelinerun-abcde');
    expect(card.fields?.map((f) => f.label)).toEqual(['Status', 'Source', 'Ref']);
    expect(card.actions?.map((a) => a.label)).toEqual(['Logs', 'Cancel']);
  });

  it('is German for a German reader', () => {
    const card = buildCard('mytool', build, undefined, translator('de'));
    expect(card.title).toBe('Build von mytool');
    expect(card.locale).toBe('de');
    expect(card.fields?.map((f) => f.label)).toEqual(['Status', 'Quelle', 'Ref']);
  });
});

describe('a web service card', () => {
  it('says where it runs, in Hebrew with the tool and address isolated', () => {
    const card = webserviceCard('mytool', web, 'https://mytool.example/', undefined, translator('he'));
    expect(card.title).toBe(`שירות הווב של ${FSI}mytool${PDI}`);
    expect(card.text).toContain(`${FSI}https://mytool.example/${PDI}`);
    expect(card.actions?.map((a) => a.label)).toEqual(['הפעלה מחדש', 'יומנים', 'עצירה']);
  });

  it('is the same English as before', () => {
    const card = webserviceCard('mytool', web, 'https://mytool.example/');
    expect(card.text).toBe('The web service of mytool is running at https://mytool.example/');
  });
});

describe('a digest schedule', () => {
  const weekly = { every: 'weekly', at: '09:00', weekday: 1, timezone: 'UTC' } as const;

  it('reads in English as the footer always did', () => {
    expect(digestWords(translator('en'), weekly)).toBe('weekly digest on Mondays at 09:00 (UTC)');
    expect(digestWords(translator('en'), { ...weekly, every: 'daily' })).toBe('daily digest at 09:00 (UTC)');
  });

  it('names the weekday in the reader’s language', () => {
    expect(digestWords(translator('de'), weekly)).toBe('wöchentlicher Digest, jeden Montag um 09:00 (UTC)');
  });
});
