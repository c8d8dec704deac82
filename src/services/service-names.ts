/** The remote services as people know them, for messages ("Still waiting for the tool platform…"). */
import { type MessageKey, type Translator, translator } from '../i18n/translate';

/**
 * Each service's name in messages, by the key its client is created with. The names say what the
 * service is (not brand names), so they are translated: each language writes them as the subject of
 * a sentence (`the tool platform`, `die Werkzeugplattform`, `פלטפורמת הכלים`).
 */
const SERVICE_NAMES: Record<string, MessageKey> = {
  toolhost: 'service-name-toolhost',
  sourcehost: 'service-name-sourcehost',
  calendar: 'service-name-calendar',
  media: 'service-name-media',
};

/** How a service is called in a message, in the reader's language (`the tool platform`). */
export function serviceNameIn(say: Translator, service: string): string {
  const key = SERVICE_NAMES[service];
  return key ? say.t(key) : service;
}

/** How a service is called at the start of a sentence (`The tool platform`). */
export function serviceNameFirst(say: Translator, service: string): string {
  const name = serviceNameIn(say, service);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * How a service is called in a message of `say` (`the tool platform`, `der Kalender`); English by
 * default, as logs have it. A service without a name of its own is called by its key.
 */
export function serviceName(service: string, say: Translator = translator('en')): string {
  if (SERVICE_NAMES[service]) return serviceNameIn(say, service);
  return say.language === 'en' ? `the ${service}` : service;
}
