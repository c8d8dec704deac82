/**
 * Which external services are real and which are the embedded emulators — one rule for all of them:
 * a service talks to its real endpoint when its URL variable is set; otherwise, in sandbox mode
 * (`--sandbox`, `SANDBOX=1`, or no tool-platform URL at all), it talks to its emulator; outside
 * sandbox mode it uses its default public endpoint (or, for the calendar, says it is not set up).
 * So `CALENDAR_URL=… npm start -- --sandbox` reaches a real calendar while the rest stays emulated.
 */
import type { Emulators } from '@deckhand/sandbox';
import type { Config } from '../config';

/** The external services Deckhand talks to. */
export type ServiceName = 'toolhost' | 'calendar' | 'media' | 'sourcehost' | 'phabricator';

/** Real endpoint or embedded emulator. */
export type ServiceMode = 'real' | 'emulator';

/** The mode of each service. */
export type ServiceModes = Record<ServiceName, ServiceMode>;

/** The variable whose presence makes each service real, and what users call it. */
export const SERVICE_URL_VARIABLES: Record<ServiceName, { variables: (keyof Config)[]; label: string }> = {
  toolhost: { variables: ['TOOLHOST_URL', 'TOOLHOST_INTERNAL_URL'], label: 'tool platform' },
  calendar: { variables: ['CALENDAR_URL'], label: 'calendar' },
  media: { variables: ['MEDIA_API_URL'], label: 'media host' },
  sourcehost: { variables: ['SOURCEHOST_URL'], label: 'source host' },
  phabricator: { variables: ['PHABRICATOR_URL'], label: 'Phabricator' },
};

/** Applies the rule above to a configuration. */
export function serviceModes(config: Config, sandbox: boolean): ServiceModes {
  const mode = (name: ServiceName): ServiceMode =>
    SERVICE_URL_VARIABLES[name].variables.some((v) => Boolean(config[v])) || !sandbox ? 'real' : 'emulator';
  return {
    toolhost: mode('toolhost'),
    calendar: mode('calendar'),
    media: mode('media'),
    sourcehost: mode('sourcehost'),
    phabricator: mode('phabricator'),
  };
}

/** The services `modes` emulates. */
export function emulatedServices(modes: ServiceModes): ServiceName[] {
  return (Object.keys(modes) as ServiceName[]).filter((name) => modes[name] === 'emulator');
}

/** One line for the start-up output, e.g. `Services: calendar real (CALENDAR_URL); tool platform, media host, source host emulated.` */
export function describeServiceModes(modes: ServiceModes): string {
  const names = Object.keys(modes) as ServiceName[];
  const real = names.filter((n) => modes[n] === 'real');
  const emulated = names.filter((n) => modes[n] === 'emulator');
  const parts: string[] = [];
  if (real.length > 0) {
    const list = real.map(
      (n) => `${SERVICE_URL_VARIABLES[n].label} (${SERVICE_URL_VARIABLES[n].variables.join(' or ')})`,
    );
    parts.push(`${list.join(', ')} real`);
  }
  if (emulated.length > 0) {
    parts.push(`${emulated.map((n) => SERVICE_URL_VARIABLES[n].label).join(', ')} emulated (sandbox)`);
  }
  return `Services: ${parts.join('; ')}.`;
}

/**
 * `config` with the settings of the running emulators that their service's commands read from the
 * configuration (the Phabricator emulator's address and token).
 */
export function withEmulatorSettings(config: Config, emulators: Emulators): Config {
  const { phabricator } = emulators;
  if (!phabricator) return config;
  return { ...config, PHABRICATOR_URL: phabricator.url, PHABRICATOR_TOKEN: phabricator.token };
}
