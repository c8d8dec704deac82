import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, valueImportGraph } from '../support/import-cycles';

const root = join(import.meta.dirname, '..', '..');

describe('value-import cycles', () => {
  it('no two modules of src/, adapters/ and commands/ import each other by value, directly or around', () => {
    const graph = valueImportGraph(root);
    expect(graph.size).toBeGreaterThan(100);
    // A card reaches the commands of its buttons through the group's `signatures.ts`.
    expect(graph.get('commands/toolhost/job-card.ts')).toContain('commands/toolhost/signatures.ts');
    // `import type` is erased at run time: no edge (the group's context imports its command types so).
    expect(graph.get('commands/toolhost/context.ts')).not.toContain('src/core/command.ts');
    expect(importCycles(graph).map((group) => group.join(' ↔ '))).toEqual([]);
  });

  it('finds a cycle through several files and a file that imports itself, and nothing in a chain', () => {
    const graph = new Map([
      ['card.ts', ['command.ts']],
      ['command.ts', ['help.ts']],
      ['help.ts', ['card.ts']],
      ['self.ts', ['self.ts']],
      ['chain-a.ts', ['chain-b.ts']],
      ['chain-b.ts', []],
    ]);
    expect(importCycles(graph)).toEqual([['card.ts', 'command.ts', 'help.ts'], ['self.ts']]);
  });
});
