// The baseline of the ack benchmark: a bare Bolt app on the same fake Slack that only acknowledges
// slash commands (same signing secret, same Bolt HTTP receiver Deckhand mounts). Prints "ready <port>".
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';

const port = Number(process.env.PORT);
const receiver = new HTTPReceiver({
  signingSecret: process.env.SLACK_SIGNING_SECRET as string,
  endpoints: ['/slack/events'],
  logLevel: LogLevel.ERROR,
});
const app = new App({
  receiver,
  token: process.env.SLACK_BOT_TOKEN as string,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL as string },
  logLevel: LogLevel.ERROR,
  convoStore: false,
  deferInitialization: true,
});
app.command(/^\/[\w-]+$/, async ({ ack }) => {
  await ack();
});
await app.init();
await receiver.start({ port, host: '127.0.0.1' });
process.stdout.write(`ready ${port}\n`);
process.on('SIGTERM', () => {
  void receiver.stop().then(() => process.exit(0));
});
