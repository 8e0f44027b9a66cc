import { literalAddress, refusalMessage, type AddressPolicy } from './address-policy.js';
import { errors } from '../error-factories.js';

/**
 * A receiver URL: absolute, http or https, no credentials in it (they would be logged and listed),
 * and not a literal address the policy refuses. The WHATWG parser has already turned every IPv4
 * spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) into dotted decimal; names are judged
 * at delivery, after they are resolved.
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
  return url.href;
}
