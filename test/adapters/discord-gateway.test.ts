import { jobsRuntimeOf } from '@deckhand/sandbox/toolhost/jobs-engine';
import { describe, expect, it, vi } from 'vitest';
import { autocomplete, buttonClick, type FakeMessage, modalSubmit, slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { botMessages, button, buttons, debugOnFailure, embedOf, originalOf } from '../fakes/discord/inspect';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let h: DiscordHarness;

useFakePlatform(startDiscordHarness, (started) => {
  h = started;
});

/** The bot's channel message whose embed title is `title` (the newest), after the first `after`. */
async function posted(title: string | RegExp, after = 0): Promise<FakeMessage> {
  return waitFor(() =>
    botMessages(h.fake)
      .slice(after)
      .reverse()
      .find((m) => {
        const t = embedOf(m).title ?? '';
        return typeof title === 'string' ? t === title : title.test(t);
      }),
  );
}

describe('Discord adapter over the gateway', () => {
  it('/deploy tool:mytool is deferred within 3 s and its card ends successful', async () => {
    debugOnFailure(h);
    expect(h.fake.gateway.connected).toBe(1);
    // Guild and direct messages (for mentions with links), and no privileged intent.
    const identified = h.fake.gateway.identifies[0] as { token: string; intents: number };
    expect(identified.token).toBe(h.fake.token);
    expect(identified.intents).toBe((1 << 9) | (1 << 12));
    const interaction = h.fake.interact(slashCommand(h.place(), 'deploy', { tool: 'mytool' }));
    const ack = await waitFor(() => interaction.callbacks[0]);
    expect(ack.at - interaction.sentAt).toBeLessThan(3000);
    expect(ack.body).toEqual({ type: 5, data: { flags: 64 } });
    const card = await posted('Deploy mytool');
    const final = await waitFor(() => {
      const embed = embedOf(card);
      return embed.fields?.find((f) => f.name === 'Status')?.value === 'successful' ? embed : undefined;
    }, 15_000);
    expect(final.color).toBe(0x57f287);
    expect(final.description).toContain('finished successfully');
    expect(buttons(card).map((b) => b.label)).toContain('Redeploy');
    // Edited with the bot token on the channel message, not through the 15-minute interaction token.
    const edits = h.fake.requestsTo('PATCH', new RegExp(`^/channels/\\d+/messages/${card.id}$`));
    expect(edits.length).toBeGreaterThan(0);
    for (const edit of edits) expect(edit.headers.authorization).toBe(`Bot ${h.fake.token}`);
    for (const body of card.history) expect(body.allowed_mentions).toEqual({ parse: [] });
    // The ephemeral "thinking…" is removed once the public card is posted.
    await waitFor(
      () =>
        h.fake.requestsTo('DELETE', new RegExp(`/webhooks/\\d+/${interaction.token}/messages/@original`))[0],
    );
  });

  it("a job card's Restart button restarts the job once, even when the click is delivered twice", async () => {
    debugOnFailure(h);
    const runtime = jobsRuntimeOf(h.app.emulators.toolhost!.ctx);
    const before = runtime.get('mytool', 'web')?.restarts ?? 0;
    h.fake.interact(slashCommand(h.place(), 'jobs show', { tool: 'mytool', job: 'web' }));
    const card = await posted('Job web of mytool');
    const restart = button(card, 'Restart');
    expect(restart).toMatch(/^[0-9A-Za-z]{12}$/);

    const shown = botMessages(h.fake).length;
    const click = buttonClick(h.place(), restart, { id: card.id });
    const first = h.fake.interact(click);
    h.fake.interact(click); // the same delivery again, as after a gateway resume
    const doubleClick = h.fake.interact(buttonClick(h.place(), restart, { id: card.id }));
    await waitFor(() => first.callbacks[0]);
    expect(first.callbacks[0]?.body).toEqual({ type: 6 });
    expect((await waitFor(() => doubleClick.callbacks[0])).body).toEqual({ type: 6 });
    expect(doubleClick.callbacks).toHaveLength(1);
    const result = await posted('Job web of mytool', shown);
    expect(embedOf(result).description).toContain('restarted');
    await waitFor(() => h.logs.some((line) => line.includes('dropped a re-delivered interaction')));
    await waitFor(() => h.logs.some((line) => line.includes('ignored a double click')));
    expect(runtime.get('mytool', 'web')?.restarts).toBe(before + 1);
    expect(
      botMessages(h.fake)
        .slice(shown)
        .filter((m) => embedOf(m)?.title === 'Job web of mytool'),
    ).toHaveLength(1);
  });

  it('checks the rights of the person who clicks, and answers them privately', async () => {
    debugOnFailure(h);
    const runtime = jobsRuntimeOf(h.app.emulators.toolhost!.ctx);
    h.fake.interact(slashCommand(h.place(), 'jobs show', { tool: 'demo', job: 'api' }));
    const card = await posted('Job api of demo');
    const before = runtime.get('demo', 'api')?.restarts ?? 0;
    const click = h.fake.interact(
      buttonClick(h.place(h.strangerId), button(card, 'Restart'), { id: card.id }),
    );
    const refusal = await waitFor(() => h.fake.store.messages.get(click.followups[0] ?? ''));
    expect(refusal.flags).toBe(64);
    expect(embedOf(refusal).description).toContain('Only maintainers of demo can do that.');
    expect(embedOf(refusal).description).not.toMatch(/at .*\.ts/);
    expect(runtime.get('demo', 'api')?.restarts).toBe(before);
  });

  it('autocompletes tool names, job names and build and deployment ids from the platform', async () => {
    debugOnFailure(h);
    const tools = h.fake.interact(autocomplete(h.place(), 'jobs show', { tool: '' }, 'tool'));
    const jobs = h.fake.interact(autocomplete(h.place(), 'jobs show', { tool: 'mytool', job: '' }, 'job'));
    const filtered = h.fake.interact(autocomplete(h.place(), 'logs', { tool: 'demo', job: 'n' }, 'job'));
    const builds = h.fake.interact(autocomplete(h.place(), 'build show', { tool: 'mytool', id: '' }, 'id'));
    const deployments = h.fake.interact(
      autocomplete(h.place(), 'deployment show', { tool: 'mytool', id: '' }, 'id'),
    );
    const choices = async (interaction: typeof tools) => {
      const callback = await waitFor(() => interaction.callbacks[0]);
      expect(callback.body.type).toBe(8);
      return ((callback.body.data as { choices: { name: string; value: string }[] }).choices ?? []).map(
        (c) => c.value,
      );
    };
    expect(await choices(tools)).toEqual(['demo', 'mytool']);
    expect(await choices(jobs)).toEqual(['daily-report', 'migrate-db', 'web']);
    expect(await choices(filtered)).toEqual(['nightly']);
    const buildIds = await choices(builds);
    expect(buildIds[0]).toBe('latest');
    expect(buildIds.slice(1).every((id) => id.startsWith('mytool-buildpacks-pipelinerun-'))).toBe(true);
    expect(buildIds.length).toBeGreaterThan(2);
    const deploymentIds = await choices(deployments);
    expect(deploymentIds[0]).toBe('latest');
    expect(deploymentIds.length).toBeGreaterThan(1);
  });

  it('caches platform listings briefly between keystrokes', async () => {
    debugOnFailure(h);
    const forTool = vi.spyOn(h.app.services.toolhost, 'forTool');
    try {
      for (const typed of ['', '2', '20']) {
        const interaction = h.fake.interact(
          autocomplete(h.place(), 'deployment show', { tool: 'demo', id: typed }, 'id'),
        );
        await waitFor(() => interaction.callbacks[0]);
      }
      expect(forTool.mock.calls.filter(([tool]) => tool === 'demo')).toHaveLength(1);
    } finally {
      forTool.mockRestore();
    }
  });

  it('confirms destructive actions with an ephemeral Confirm button; the click runs it once', async () => {
    debugOnFailure(h);
    const runtime = jobsRuntimeOf(h.app.emulators.toolhost!.ctx);
    expect(runtime.get('mytool', 'migrate-db')).toBeDefined();
    const shown = botMessages(h.fake).length;
    const ask = h.fake.interact(
      slashCommand(h.place(), 'jobs delete', { tool: 'mytool', job: 'migrate-db' }),
    );
    const prompt = await waitFor(() => {
      const id = ask.original;
      const message = id ? h.fake.store.messages.get(id) : undefined;
      return message && buttons(message).length ? message : undefined;
    });
    expect(prompt.flags).toBe(64);
    expect(embedOf(prompt).description).toContain('Stop and delete job migrate-db of mytool?');
    expect(buttons(prompt).map((b) => [b.label, b.style])).toEqual([
      ['Confirm', 4],
      ['Cancel', 2],
    ]);
    expect(botMessages(h.fake).slice(shown)).toEqual([]);
    expect(runtime.get('mytool', 'migrate-db')).toBeDefined();

    const confirm = h.fake.interact(
      buttonClick(h.place(), button(prompt, 'Confirm'), { id: prompt.id, flags: 64 }),
    );
    await waitFor(() => runtime.get('mytool', 'migrate-db') === undefined);
    expect((await waitFor(() => confirm.callbacks[0])).body).toEqual({ type: 6 });
    const done = await waitFor(() =>
      botMessages(h.fake)
        .slice(shown)
        .find((m) => embedOf(m).description?.includes('migrate-db')),
    );
    expect(embedOf(done).color).toBe(0x57f287);
    // The used confirmation loses its buttons.
    await waitFor(() => (buttons(prompt).length === 0 ? true : undefined));
  });

  it('Cancel on a confirmation replaces the prompt and changes nothing', async () => {
    debugOnFailure(h);
    const runtime = jobsRuntimeOf(h.app.emulators.toolhost!.ctx);
    const jobs = runtime.list('demo').length;
    const ask = h.fake.interact(slashCommand(h.place(), 'jobs flush', { tool: 'demo' }));
    const prompt = await waitFor(() => originalOf(h.fake, ask));
    const cancel = h.fake.interact(
      buttonClick(h.place(), button(prompt, 'Cancel'), { id: prompt.id, flags: 64 }),
    );
    await waitFor(() => (embedOf(prompt).description?.startsWith('Cancelled') ? true : undefined));
    expect(cancel.callbacks[0]?.body).toEqual({ type: 6 });
    expect(embedOf(prompt).description).toBe('Cancelled; nothing was changed.');
    expect(buttons(prompt)).toEqual([]);
    expect(runtime.list('demo')).toHaveLength(jobs);
  });

  it('opens a modal for a secret and sets it from the submission, never logging or posting the value', async () => {
    debugOnFailure(h);
    const secret = 'Zq8-very-secret-value-81';
    const ask = h.fake.interact(
      slashCommand(h.place(), 'envvars set', { tool: 'mytool', name: 'NEW_TOKEN' }),
    );
    const callback = await waitFor(() => ask.callbacks[0]);
    expect(callback.body.type).toBe(9);
    const modal = callback.body.data as {
      custom_id: string;
      title: string;
      components: Record<string, unknown>[];
    };
    expect(modal.title).toBe('Set NEW_TOKEN of mytool');
    expect(modal.components).toContainEqual({
      type: 18,
      label: 'Value of NEW_TOKEN',
      description: 'Kept secret: not shown in the channel and never logged.',
      component: { type: 4, custom_id: 'value', style: 1, required: true },
    });
    const submit = h.fake.interact(modalSubmit(h.place(), modal.custom_id, { value: secret }));
    await waitFor(() => submit.callbacks[0]);
    const envvars = await waitFor(async () => {
      const client = h.app.services.toolhost.forTool('mytool');
      const list = await client.envvars.list();
      return list.find((e) => e.name === 'NEW_TOKEN');
    });
    expect(envvars.value).toBe(secret);
    await waitFor(() =>
      h.fake.requests.some((r) => JSON.stringify(r.body ?? '').includes('of mytool (value')),
    );
    for (const request of h.fake.requests) expect(JSON.stringify(request.body ?? '')).not.toContain(secret);
    expect(h.logs.join('')).not.toContain(secret);
  });

  it('sends a log line containing @everyone with allowed_mentions.parse empty', async () => {
    debugOnFailure(h);
    jobsRuntimeOf(h.app.emulators.toolhost!.ctx).emit('demo', 'api', [
      'deploy finished, pinging @everyone and @here',
    ]);
    const shown = botMessages(h.fake).length;
    h.fake.interact(slashCommand(h.place(), 'logs', { tool: 'demo', job: 'api' }));
    const card = await posted(/^Logs of api/, shown);
    const request = h.fake
      .requestsTo('POST', /^\/channels\/\d+\/messages$/)
      .find((r) => JSON.stringify(r.body).includes('pinging @everyone'));
    expect(request).toBeDefined();
    const body = request?.body as { allowed_mentions: { parse: unknown[] }; content?: string };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toBeUndefined();
    expect(embedOf(card).description).toContain('pinging @everyone and @here');
    expect(embedOf(card).description).toMatch(/^```/m);
  });

  it('waits out a 429 with retry_after and loses nothing', async () => {
    debugOnFailure(h);
    const shown = botMessages(h.fake).length;
    h.fake.rateLimitNext('POST', /^\/channels\/\d+\/messages$/, 0.4);
    const started = h.fake.requestsTo('POST', /^\/channels\/\d+\/messages$/).length;
    h.fake.interact(slashCommand(h.place(), 'jobs show', { tool: 'demo', job: 'nightly' }));
    const card = await posted('Job nightly of demo', shown);
    const attempts = h.fake.requestsTo('POST', /^\/channels\/\d+\/messages$/).slice(started);
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    expect(attempts[1]?.body).toEqual(attempts[0]?.body);
    expect((attempts[1]?.at ?? 0) - (attempts[0]?.at ?? 0)).toBeGreaterThanOrEqual(400);
    expect(
      botMessages(h.fake)
        .slice(shown)
        .map((m) => m.id),
    ).toEqual([card.id]);
    expect(h.logs.join('')).toContain('discord rate limit: waiting before retrying');
  });

  it('answers private cards ephemerally and posts nothing in the channel', async () => {
    debugOnFailure(h);
    const shown = botMessages(h.fake).length;
    const help = h.fake.interact(slashCommand(h.place(), 'help', {}));
    const reply = await waitFor(() => {
      const message = help.original ? h.fake.store.messages.get(help.original) : undefined;
      return message?.embeds.length ? message : undefined;
    });
    expect(reply.flags).toBe(64);
    expect(embedOf(reply).title).toBe('Deckhand commands');
    expect(botMessages(h.fake)).toHaveLength(shown);
  });

  it('reconnects and resumes after the gateway drops, and keeps serving', async () => {
    debugOnFailure(h);
    h.fake.gateway.dropConnections();
    await waitFor(() => h.fake.gateway.resumes.length === 1 && h.fake.gateway.connected === 1, 10_000);
    expect(h.fake.gateway.resumes[0]).toMatchObject({ token: h.fake.token, seq: expect.any(Number) });
    const help = h.fake.interact(slashCommand(h.place(), 'help', { topic: 'deploy' }));
    await waitFor(() => help.callbacks[0]);
    expect(await h.adapter.healthy()).toBe(true);
  });
});
