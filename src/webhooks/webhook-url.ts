import { invalidRequest } from '../errors.js';
import { literalAddress, refusalMessage, type AddressPolicy } from './address-policy.js';

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
    throw invalidRequest(`url: '${value}' is not an absolute URL`, [{ path: 'url', message: 'must be an absolute http or https URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidRequest(`url: the scheme '${url.protocol.slice(0, -1)}' is not allowed; use http or https`, [
      { path: 'url', message: 'must use http or https' },
    ]);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidRequest('url: must not contain credentials; the signature authenticates deliveries', [
      { path: 'url', message: 'must not contain user or password' },
    ]);
  }
  const address = literalAddress(url.hostname);
  const verdict = address === undefined ? undefined : policy.check(address);
  if (verdict && !verdict.allowed) {
    const message = refusalMessage(`the host ${url.hostname}`, verdict.addressClass);
    throw invalidRequest(`url: ${message}`, [{ path: 'url', message }], 'WEBHOOK_TARGET_REFUSED');
  }
  return url.href;
}
