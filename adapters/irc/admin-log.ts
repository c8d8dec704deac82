/** The Server Admin Log's outbox on IRC: its lines join the IRC outbox, once per change. */
import type { AdminLogOutbox } from '../../src/core/admin-log-outbox';
import type { IrcMessenger } from './messenger';
import { ircConversationId } from './surface';

/** {@link AdminLogOutbox} over the IRC outbox (`network` as in the adapter's conversation ids). */
export class IrcAdminLogOutbox implements AdminLogOutbox {
  constructor(
    private readonly messenger: IrcMessenger,
    private readonly network: string,
  ) {}

  async enqueue(channel: string, line: string, id: string): Promise<void> {
    await this.messenger.queue(ircConversationId(this.network, channel), `sal-${id}`, [line]);
  }
}
