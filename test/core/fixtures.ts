import { z } from 'zod';
import { defineCommand } from '../../src/core/command';
import { CommandRegistry } from '../../src/core/registry';

/** A small registry shaped like the real one, for parser and runner tests. */
export function sampleRegistry() {
  const ran: { name: string; args: Record<string, unknown> }[] = [];
  const record = (name: string) => async (ctx: { args: Record<string, unknown> }) => {
    ran.push({ name, args: ctx.args });
    return { text: `${name} ran`, status: 'success' as const };
  };
  const registry = new CommandRegistry<unknown>([
    defineCommand({
      name: 'deploy',
      args: z.object({
        tool: z.string().regex(/^[a-z0-9-]+$/, 'must be a tool name'),
        forceBuild: z.boolean().default(false),
        forceRun: z.boolean().default(false),
        description: z.string().max(200).optional(),
      }),
      positional: ['tool'],
      examples: ['/deploy mytool --force-build'],
      permission: 'write',
      sideEffect: true,
      run: record('deploy'),
    }),
    defineCommand({
      name: 'build start',
      args: z.object({
        tool: z.string(),
        sourceUrl: z.url({
          protocol: /^https?$/,
          message: 'must be an http(s) URL like https://example.org/repo.git',
        }),
        ref: z.string().optional(),
        env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z_0-9]*=/, 'must look like NAME=value')).default([]),
      }),
      positional: ['tool', 'sourceUrl'],
      examples: ['/build start mytool https://example.org/repo.git --ref main'],
      permission: 'write',
      sideEffect: true,
      run: record('build start'),
    }),
    defineCommand({
      name: 'build list',
      args: z.object({ tool: z.string(), limit: z.number().int().min(1).max(50).default(10) }),
      positional: ['tool'],
      examples: ['/build list mytool'],
      permission: 'read',
      sideEffect: false,
      run: record('build list'),
    }),
    defineCommand({
      name: 'build delete',
      args: z.object({ tool: z.string(), id: z.string() }),
      positional: ['tool', 'id'],
      examples: ['/build delete mytool latest'],
      permission: 'write',
      sideEffect: true,
      confirm: (args) => `Delete build ${args.id} of ${args.tool}?`,
      run: record('build delete'),
    }),
  ]);
  return { registry, ran };
}
