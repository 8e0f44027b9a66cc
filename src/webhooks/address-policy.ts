import ipaddr from 'ipaddr.js';

/** Why an address may not receive webhooks: ipaddr.js's name of its range (`loopback`, `private` ...). */
export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly addressClass: string };

/** The setting an operator uses to let webhooks reach an internal range; named in every refusal. */
export const ALLOW_SETTING = 'webhook_allow_networks';

/** How a refusal reads, at registration and in the delivery log. */
export const refusalMessage = (what: string, addressClass: string) =>
  `${what} is ${/^[aeiou]/i.test(addressClass) ? 'an' : 'a'} ${addressClass} address; webhooks go only to public addresses (an operator may allow an internal range with the ${ALLOW_SETTING} setting)`;

/**
 * Which addresses webhook requests may go to: public unicast only, unless an operator allowed a range.
 * Everything else (loopback, private, link-local with 169.254.169.254, unique-local, multicast,
 * unspecified, carrier-grade NAT, broadcast, reserved, the IPv6 forms that embed an IPv4 address)
 * would let a client aim signed requests at the host or its network. Parsing is ipaddr.js's, and an
 * IPv6 address that embeds an IPv4 one is judged as that IPv4 address (see `judgedAs`).
 */
export class AddressPolicy {
  private readonly allowed: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

  /** `allowNetworks`: CIDR ranges (`10.0.0.0/8`, `fd00::/8`) that are accepted whatever their class. */
  constructor(allowNetworks: readonly string[] = []) {
    this.allowed = allowNetworks.map((cidr) => normalizedCidr(ipaddr.parseCIDR(cidr)));
  }

  /** The verdict on one address in any spelling ipaddr.js reads; text that is no address is refused. */
  check(address: string): AddressVerdict {
    if (!ipaddr.isValid(address)) return { allowed: false, addressClass: 'malformed' };
    const parsed = judgedAs(address);
    if (this.allowed.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits))) return { allowed: true };
    const range = parsed.range();
    return range === 'unicast' ? { allowed: true } : { allowed: false, addressClass: range };
  }
}

/** A literal IP host of a URL (`127.0.0.1`, `[::1]`), without brackets; undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}

/** The all-zero /96 of the deprecated IPv4-compatible IPv6 addresses (`::a.b.c.d`). */
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/**
 * What `address` is judged as: an IPv4-mapped (`::ffff:a.b.c.d`)
 * or IPv4-compatible (`::a.b.c.d`, which the URL parser writes `[::7f00:1]`) IPv6 address is the IPv4
 * address it embeds: some network stacks carry a connection to it to that IPv4 address, and
 * ipaddr.js itself calls the latter plain unicast. `::` and `::1` are in that /96 too, but are IPv6's
 * own unspecified and loopback addresses and are judged as such.
 */
function judgedAs(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed;
  const v6 = parsed as ipaddr.IPv6;
  if (!v6.match(IPV4_COMPATIBLE) || v6.range() === 'unspecified' || v6.range() === 'loopback') return v6;
  return new ipaddr.IPv4(v6.toByteArray().slice(12));
}

/** An IPv4-mapped IPv6 range (`::ffff:10.0.0.0/104`) is kept as the IPv4 range it covers. */
function normalizedCidr([address, bits]: [ipaddr.IPv4 | ipaddr.IPv6, number]): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}
