/** The remote services as people know them, for messages ("Still waiting for the tool platform…"). */

/** Each service's name in messages, by the key its client is created with. */
const SERVICE_NAMES: Record<string, string> = {
  toolhost: 'tool platform',
  sourcehost: 'source host',
  calendar: 'calendar',
  media: 'media host',
};

/** How a service is called in a message (`the tool platform`). */
export function serviceName(service: string): string {
  return `the ${SERVICE_NAMES[service] ?? service}`;
}
