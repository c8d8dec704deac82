import { ENV } from './config';

/** The table of every environment variable (docs/configuration.md): name, default, meaning. */
export function envTable(): string {
  const rows = Object.entries(ENV).map(([name, spec]) => {
    const parsed = spec.schema.safeParse(undefined);
    const literal =
      parsed.success &&
      parsed.data !== undefined &&
      !(Array.isArray(parsed.data) && parsed.data.length === 0);
    const fallback =
      'defaultText' in spec && spec.defaultText
        ? spec.defaultText
        : literal
          ? `\`${String(parsed.data)}\``
          : '—';
    return `| \`${name}\` | ${fallback} | ${spec.description.replaceAll('|', '\\|')} |`;
  });
  return ['| Variable | Default | What it does |', '| --- | --- | --- |', ...rows].join('\n');
}
