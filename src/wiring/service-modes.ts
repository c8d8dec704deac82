/**
 * Which external services are real and which are the embedded emulators — one rule for all of them:
 * a service talks to its real endpoint when its URL variable is set; otherwise, in sandbox mode
 * (`--sandbox`, `SANDBOX=1`, or no tool-platform URL at all), it talks to its emulator; outside
 * sandbox mode it uses its default public endpoint (or, for the calendar, says it is not set up).
 * So `CALENDAR_URL=… npm start -- --sandbox` reaches a real calendar while the rest stays emulated.
 */
import type { Emulators } from '@deckhand/sandbox';
import type { Config } from '../config';
import { type MessageKey, type Translator, translator } from '../i18n/translate';

/** The external services Deckhand talks to. */
export type ServiceName = 'toolhost' | 'calendar' | 'media' | 'sourcehost' | 'phabricator';

/** Real endpoint or embedded emulator. */
export type ServiceMode = 'real' | 'emulator';

/** The mode of each service. */
export type ServiceModes = Record<ServiceName, ServiceMode>;

/** The variable whose presence makes each service real, and what users call it. */
export const SERVICE_URL_VARIABLES: Record<ServiceName, { variables: (keyof Config)[]; label: string }> = {
  toolhost: {
    variables: ['TOOLHOST_URL', 'TOOLHOST_INTERNAL_URL'],
    label: label('sandbox-service-toolhost'),
  },
  calendar: { variables: ['CALENDAR_URL'], label: label('sandbox-service-calendar') },
  media: { variables: ['MEDIA_API_URL'], label: label('sandbox-service-media') },
  sourcehost: { variables: ['SOURCEHOST_URL'], label: label('sandbox-service-sourcehost') },
  phabricator: { variables: ['PHABRICATOR_URL'], label: label('sandbox-service-phabricator') },
};

/** What users call each service, by its message. */
const SERVICE_LABELS: Record<ServiceName, MessageKey> = {
  toolhost: 'sandbox-service-toolhost',
  calendar: 'sandbox-service-calendar',
  media: 'sandbox-service-media',
  sourcehost: 'sandbox-service-sourcehost',
  phabricator: 'sandbox-service-phabricator',
};

/** A service's name in English. */
function label(key: MessageKey): string {
  return translator('en').t(key);
}

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
export function describeServiceModes(modes: ServiceModes, say: Translator = translator('en')): string {
  const names = Object.keys(modes) as ServiceName[];
  const real = names.filter((n) => modes[n] === 'real');
  const emulated = names.filter((n) => modes[n] === 'emulator');
  const parts: string[] = [];
  if (real.length > 0) {
    const list = real.map((n) =>
      say.t(
        'sandbox-service-real-by',
        say.t(SERVICE_LABELS[n]),
        SERVICE_URL_VARIABLES[n].variables.join(' or '),
      ),
    );
    parts.push(say.t('sandbox-services-real', list.join(', ')));
  }
  if (emulated.length > 0) {
    parts.push(say.t('sandbox-services-emulated', emulated.map((n) => say.t(SERVICE_LABELS[n])).join(', ')));
  }
  return say.t('sandbox-services', parts.join('; '));
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
