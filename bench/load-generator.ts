// The load generator of the ack benchmark, in a process of its own: its clock must not share
// an event loop with the fake Slack and the toolhost sandbox, which are busy answering Deckhand's
// worker while the load runs (in one process, their work would be timed as ack latency). One process serves
// every round of a benchmark run: it reads one job a line from stdin (JSON: target, rate, seconds,
// out), writes the run to `out` and prints "done <out>"; it ends with its stdin.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { commandLoad, type LoadTarget } from './lib/command-load';

interface LoadSpec {
  target: LoadTarget;
  rate: number;
  seconds: number;
  out: string;
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const spec = JSON.parse(line) as LoadSpec;
  const run = await commandLoad(spec.target, spec.rate, spec.seconds);
  writeFileSync(spec.out, JSON.stringify({ ...run, sentAt: [...run.sentAt] }));
  process.stdout.write(`done ${spec.out}\n`);
}
process.exit(0);
