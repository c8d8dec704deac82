/** The context of the toolhost commands: the part of the services they use. */
import { type AppServices, commandsWith } from '../services';

type Used =
  | 'toolhost'
  | 'watches'
  | 'tails'
  | 'bindings'
  | 'subscriptions'
  | 'discovery'
  | 'accounts'
  | 'digests';

/**
 * What the tool-platform commands use: the client factory, watches and tails, bindings,
 * subscriptions with discovery, and linked accounts (deploy tokens); `/subscriptions` also lists the
 * calendar digest and the import follows of the conversation.
 */
export type ToolhostServices = Pick<AppServices, Used>;

/** `defineCommand` for this group: its commands see {@link ToolhostServices} only. */
export const command = commandsWith<Used>();
