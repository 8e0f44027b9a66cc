import { SettingError } from './setting-error.js';

/** The names a loopback-bound server is reached by. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

function isLoopbackBind(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * `allowed_hosts`: the host names (any port) a request's `Host` header may carry, `*.example.com` for
 * every subdomain, or `*` for any. The default guards a loopback-bound server against DNS rebinding
 * (a hostile page whose name resolves to 127.0.0.1) and accepts any host otherwise.
 */
export function parseAllowedHosts(raw: unknown, boundHost: string): '*' | string[] {
  if (raw === undefined) {
    if (!isLoopbackBind(boundHost)) return '*';
    const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
    return [...new Set([...LOOPBACK_HOSTS, bound.toLowerCase()])];
  }
  const hosts = parseHostList(raw);
  return hosts.includes('*') ? '*' : hosts;
}

function parseHostList(raw: unknown): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(items) || !items.every((i) => typeof i === 'string')) {
    throw new SettingError('allowed_hosts', 'expected a list of host names (or *)');
  }
  const hosts = items.map((i: string) => i.trim().toLowerCase());
  for (const host of hosts) {
    if (host === '*') continue;
    const plain = host.startsWith('*.') ? host.slice(2) : host;
    // A bracketed IPv6 literal, or a name / IPv4 address without port, path or spaces.
    if (!/^\[[0-9a-f:.]+\]$/.test(plain) && !/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/.test(plain)) {
      throw new SettingError('allowed_hosts', `"${host}" is not a host name such as api.example.com, *.example.com, [::1] or *`);
    }
  }
  if (hosts.length === 0) throw new SettingError('allowed_hosts', 'must list at least one host (or *)');
  return hosts;
}
