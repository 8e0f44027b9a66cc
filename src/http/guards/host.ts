/**
 * The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower case, without port
 * or trailing dot; undefined when there is none.
 */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim().toLowerCase();
  let name: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    name = value.slice(0, end + 1);
  } else {
    const colon = value.indexOf(':');
    name = colon === -1 ? value : value.slice(0, colon);
  }
  name = name.replace(/\.$/, '');
  return name === '' ? undefined : name;
}

/** Whether `allowed_hosts` accepts a request's `Host`: an exact name, or a `*.suffix` entry's subdomain. */
export function hostAllowed(allowed: '*' | readonly string[], header: string | undefined): boolean {
  if (allowed === '*') return true;
  const name = hostName(header);
  if (name === undefined) return false;
  for (const entry of allowed) {
    if (entry === name) return true;
    if (entry.startsWith('*.') && name.endsWith(entry.slice(1)) && name.length > entry.length - 1) return true;
  }
  return false;
}
