import { describe, expect, it } from 'vitest';
import type { ToolhostClientFactory } from '../../src/services/toolhost';
import { button, type TestApp } from '../support/app';
import { useToolhostApp } from '../support/toolhost-app';

let t: TestApp;
let platform: ToolhostClientFactory;

useToolhostApp((started) => {
  ({ t, platform } = started);
});

const envvars = () => platform.forTool('mytool').envvars;
const everythingPosted = () => JSON.stringify([t.transcript.posted, t.transcript.updates]);

describe('/envvars', () => {
  it('lists names with masked values', async () => {
    const secret = (await envvars().show('DB_PASSWORD')).value;
    const [card] = await t.say('/envvars list mytool');
    expect(card?.code?.text).toMatch(/DB_PASSWORD\s+••••••/);
    expect(everythingPosted()).not.toContain(secret);
  });

  it('sets a value in a private conversation, without echoing it', async () => {
    const [card] = await t.say('/envvars set mytool NEW_TOKEN hunter2hunter2', { private: true });
    expect(card?.text).toContain('Set NEW_TOKEN of mytool');
    expect((await envvars().show('NEW_TOKEN')).value).toBe('hunter2hunter2');
    expect(everythingPosted()).not.toContain('hunter2hunter2');
  });

  it('refuses a value typed in a channel, advises rotation, and changes nothing', async () => {
    const [card] = await t.say('/envvars set mytool LEAKED_KEY s3cr3t-typed-in-channel');
    expect(card?.text).toContain('only works in a private conversation');
    expect(card?.text).toContain('rotate');
    await expect(envvars().show('LEAKED_KEY')).rejects.toThrow(/not found/i);
    expect(everythingPosted()).not.toContain('s3cr3t-typed-in-channel');
  });

  it('opens a form in a channel when no value is given; the submitted value is set and never shown', async () => {
    const [card] = await t.say('/envvars set mytool FORM_SECRET');
    expect(card?.text).toContain('Opened a form');
    const { formId, form } = t.transcript.forms.at(-1) as (typeof t.transcript.forms)[number];
    expect(form.fields).toEqual([expect.objectContaining({ name: 'value', secret: true })]);
    const [done] = await t.submit(formId, { value: 'from-the-modal-123' });
    expect(done?.text).toContain('Set FORM_SECRET of mytool');
    expect((await envvars().show('FORM_SECRET')).value).toBe('from-the-modal-123');
    expect(everythingPosted()).not.toContain('from-the-modal-123');
    const [again] = await t.submit(formId, { value: 'second-try' });
    expect(again?.text).toContain('This form has expired');
  });

  it('refuses a form submitted by someone else', async () => {
    await t.say('/envvars set mytool OTHER_SECRET');
    const { formId } = t.transcript.forms.at(-1) as (typeof t.transcript.forms)[number];
    const [card] = await t.submit(formId, { value: 'intruder-value' }, { user: 'UMAINT' });
    expect(card?.text).toContain('opened for someone else');
    await expect(envvars().show('OTHER_SECRET')).rejects.toThrow(/not found/i);
  });

  it('shows a value only privately', async () => {
    const [channel] = await t.say('/envvars show mytool API_ENDPOINT');
    expect(channel?.text).toContain('only shown in a private conversation');
    const [direct] = await t.say('/envvars show mytool API_ENDPOINT', { private: true });
    expect(direct?.visibility).toBe('private');
    expect(direct?.fields?.[0]?.value).toBe((await envvars().show('API_ENDPOINT')).value);
  });

  it.each([
    ['/envvars set mytool lower_case value', /Invalid <name>: must be upper-case/],
    ['/envvars show mytool NOPE_NOT_HERE', /not found/i],
    ['/envvars delete mytool A', /Invalid <name>/],
  ])('%s → a clear message', async (line, expected) => {
    const [card] = await t.say(line, { private: true });
    expect(card?.text).toMatch(expected);
  });

  it('deletes after confirmation', async () => {
    const [ask] = await t.say('/envvars delete mytool NEW_TOKEN');
    await expect(envvars().show('NEW_TOKEN')).resolves.toBeDefined();
    await t.press(button(ask, 'Confirm'));
    await expect(envvars().show('NEW_TOKEN')).rejects.toThrow(/not found/i);
  });
});
