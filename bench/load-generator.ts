// The load generator of the ack benchmark, in a process of its own: autocannon's clock must not share
// an event loop with the fake Slack and the toolhost sandbox, which are busy answering Deckhand's
// worker while the load runs (in one process, their work was timed as ack latency). Reads its job
// from LOAD_SPEC (JSON: target, rate, seconds, out), writes the run to `out`, prints "done".
import { writeFileSync } from 'node:fs';
import { commandLoad, type LoadTarget } from './lib/command-load';

const spec = JSON.parse(process.env.LOAD_SPEC ?? '{}') as {
  target: LoadTarget;
  rate: number;
  seconds: number;
  out: string;
};
const run = await commandLoad(spec.target, spec.rate, spec.seconds);
writeFileSync(spec.out, JSON.stringify({ ...run, sentAt: [...run.sentAt] }));
process.stdout.write('done\n', () => process.exit(0));
