/** Variables of the service's own environment a program needs to start and find its tools; nothing else passes. */
export const INHERITED = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

/**
 * The environment of an external program: the few variables above, then what the domain declares.
 * Never the service's settings (`SCENARIST_*`), database URL or token secret: a clean environment
 * rather than a filtered one, so a secret added later cannot leak by being forgotten in a deny list.
 */
export function childEnvironment(declared: Readonly<Record<string, string>> | undefined, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  // Python writes stdout and stderr as UTF-8 whatever the locale (the contract's JSON is UTF-8).
  env.PYTHONIOENCODING = 'utf-8';
  return { ...env, ...declared };
}
