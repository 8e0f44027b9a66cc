import { isIP } from 'node:net';

/**
 * Whether a bind address only accepts connections from this machine: `localhost`, 127.0.0.0/8, `::1`
 * (also IPv4-mapped). Anything else, including `0.0.0.0`, `::` and host names, may be reachable from
 * other machines.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  if (isIP(h) === 6) return /^(0{0,4}:){7}0{0,3}1$|^::1$/.test(h);
  return false;
}
