/**
 * @fastify/swagger names the shared schemas it hoists `def-0`, `def-1`, ... and keeps their `$id` as
 * `title`. Generated clients name their types after components, so each is renamed after its title
 * (when that is a free, valid component name) and every reference follows.
 */
export function nameComponentsByTitle(document: Record<string, unknown>): Record<string, unknown> {
  const components = document.components as { schemas?: Record<string, { title?: unknown }> } | undefined;
  const schemas = components?.schemas;
  if (!schemas) return document;
  const renames = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const title = schema.title;
    if (!/^def-\d+$/.test(name) || typeof title !== 'string' || !/^[A-Za-z0-9._-]+$/.test(title)) continue;
    if (title in schemas || [...renames.values()].includes(title)) continue;
    renames.set(name, title);
  }
  if (renames.size === 0) return document;
  const text = JSON.stringify(document, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string') {
      const match = /^#\/components\/schemas\/(def-\d+)$/.exec(value);
      const renamed = match && renames.get(match[1]!);
      if (renamed) return `#/components/schemas/${renamed}`;
    }
    return value;
  });
  const renamed = JSON.parse(text) as Record<string, unknown> & { components: { schemas: Record<string, unknown> } };
  renamed.components.schemas = Object.fromEntries(
    Object.entries(renamed.components.schemas).map(([name, schema]) => [renames.get(name) ?? name, schema]),
  );
  return renamed;
}
