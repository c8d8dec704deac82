/**
 * Warnings the platform sends alongside answers (a builds endpoint being deprecated, the components
 * API being beta, a build quota nearly used up). A user should see each one once per process, not
 * on every card: calls record what they receive on their client, and a command drains it with
 * `client.takeWarnings()` to show in the card footer. Which texts were already shown is shared by
 * every client of one factory.
 */

/** Called once per warning text per process, when it is first received. */
export type WarningListener = (warning: string, tool: string) => void;

/** The process-wide record of warnings already shown (one per {@link ToolhostClientFactory}). */
export class WarningLedger {
  private readonly shown = new Set<string>();
  private readonly heard = new Set<string>();

  constructor(private readonly listener?: WarningListener) {}

  /** Notes that `warning` was received for `tool`; calls the listener the first time. */
  record(warning: string, tool: string): void {
    if (this.heard.has(warning)) return;
    this.heard.add(warning);
    this.listener?.(warning, tool);
  }

  /** True when `warning` was already handed out to be shown. */
  wasShown(warning: string): boolean {
    return this.shown.has(warning);
  }

  /** Marks `warning` as shown; false when it already was. */
  markShown(warning: string): boolean {
    if (this.shown.has(warning)) return false;
    this.shown.add(warning);
    return true;
  }
}

/** The warnings one client received and has not handed out yet. */
export class WarningInbox {
  private pending: string[] = [];

  constructor(
    private readonly ledger: WarningLedger,
    private readonly tool: string,
  ) {}

  /** Records warnings from one response. */
  add(warnings: readonly string[]): void {
    for (const raw of warnings) {
      const warning = raw.trim();
      if (!warning) continue;
      this.ledger.record(warning, this.tool);
      if (!this.ledger.wasShown(warning) && !this.pending.includes(warning)) this.pending.push(warning);
    }
  }

  /** Returns the warnings not shown before in this process, and marks them shown. */
  take(): string[] {
    const fresh = this.pending.filter((warning) => this.ledger.markShown(warning));
    this.pending = [];
    return fresh;
  }
}
