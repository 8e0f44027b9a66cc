import { literalAddress, refusalMessage, type AddressPolicy } from './address-policy.js';
import { errors } from '../error-factories.js';

/**
 * A receiver URL: absolute, http or https, no credentials in it (they would be logged and listed),
 * and not a literal address the policy refuses. The WHATWG parser has already turned every IPv4
 * spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) into dotted decimal. A name of this
 * machine (`localhost`, `a.localhost`, `localhost.`) is judged as the loopback address; other names
 * are judged at delivery, after they are resolved.
 */
export function checkWebhookUrl(value: string, policy: AddressPolicy): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.webhookUrlNotAbsolute(value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw errors.webhookUrlScheme(url.protocol.slice(0, -1));
  }
  if (url.username !== '' || url.password !== '') {
    throw errors.webhookUrlCredentials();
  }
  const address = literalAddress(url.hostname);
  const verdict = address === undefined ? undefined : policy.check(address);
  if (verdict && !verdict.allowed) {
    throw errors.webhookTargetRefused(refusalMessage(`the host ${url.hostname}`, verdict.addressClass));
  }
  if (address === undefined && isLoopbackName(url.hostname)) {
    const loopback = policy.check(LOOPBACK);
    if (!loopback.allowed) throw errors.webhookTargetRefused(refusalMessage(`the host ${url.hostname} (a name of this machine)`, loopback.addressClass));
  }
  return url.href;
}

/** What a loopback name is judged as: the address every resolver gives `localhost`. */
const LOOPBACK = '127.0.0.1';

/**
 * A name that always means this machine (RFC 6761: `localhost` and every name under it; and the
 * `localhost.localdomain` many hosts files list), in any case and with or without the final dots of
 * a fully qualified name. Such a name can only fail at delivery, so it is judged at registration as
 * the loopback address it stands for. The URL parser has already lower-cased the host.
 */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}
