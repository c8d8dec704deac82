/** What the Server Admin Log commands and the bridge use: the channel, the default and each tool's setting. */
export interface AdminLogService {
  /** The channel SAL lines are said in, where stashbot reads them (`SAL_CHANNEL`). */
  channel: string;
  /** Whether a tool without a setting of its own is logged (`SAL_DEFAULT`). */
  defaultOn: boolean;
  /** `tool`'s own setting: on, off, or undefined when it follows the default. */
  setting(tool: string): Promise<boolean | undefined>;
  /** Turns `tool`'s SAL on or off; resolves with its own setting before. */
  set(tool: string, on: boolean): Promise<boolean | undefined>;
}

/** Whether `tool`'s changes are written to its SAL. */
export async function salIsOn(service: AdminLogService, tool: string): Promise<boolean> {
  return (await service.setting(tool)) ?? service.defaultOn;
}
