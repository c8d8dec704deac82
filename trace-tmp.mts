import { Redis } from 'ioredis';
import { startCostDeckhand } from './bench/lib/cost-deckhand';
import { waitFor } from './test/support/wait';
const admin = new Redis({ port: 6379 });
await admin.flushdb();
const d = await startCostDeckhand({ redisPort: 6379, prefix: 'trace:' });
const proto = Redis.prototype as any; const orig = proto.sendCommand;
let log: string[] | undefined; const t0 = { v: 0 };
const sending = new Map<any, string[]>();
proto.sendCommand = function (cmd: any, ...rest: any[]) {
  if (log) {
    const port = Number(this.options.port);
    const who = port === d.web.relay.port ? 'W' : port === d.worker.relay.port ? 'K' : '?';
    let batch = sending.get(this);
    if (!batch) { batch = []; sending.set(this, batch); const b = batch; setImmediate(() => { sending.delete(this); log?.push(`${Date.now()-t0.v}ms ${who}: ${b.join(' ')}`); }); }
    const a0 = cmd.name === 'evalsha' ? `evalsha(${String(cmd.args?.[1] ?? '').slice(0,0)}${(cmd.args?.[2] ?? '').toString().split(':').slice(-2).join(':')})` : `${cmd.name}(${String(cmd.args?.[0] ?? '').split(':').slice(1,3).join(':')})`;
    batch.push(a0);
  }
  return orig.call(this, cmd, ...rest);
};
const ADMIN = { id: 'UADMIN', name: 'ada' } as const;
await new Promise(r => setTimeout(r, 1500));
await d.driver.command(ADMIN, 'C0', '/deploy mytool');
await waitFor(() => d.fake.channelMessages('C0').length > 0, 30000);
await new Promise(r => setTimeout(r, 2000));
log = []; t0.v = Date.now();
await d.driver.command(ADMIN, 'C1', '/deploy mytool');
await waitFor(() => d.fake.channelMessages('C1').length > 0, 30000);
await new Promise(r => setTimeout(r, 500));
console.log(log.join('\n'));
log = undefined;
await d.close(); admin.disconnect();
process.exit(0);
