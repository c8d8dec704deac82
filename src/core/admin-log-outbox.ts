/**
 * Where Server Admin Log lines go: the outbound queue of the chat link that carries them.
 * Queuing never waits for the link; a line is delivered once it is back.
 */
export interface AdminLogOutbox {
  /** Queue `line` for `channel`, once per `id`: a second call with the same id adds nothing. */
  enqueue(channel: string, line: string, id: string): Promise<void>;
}
