import { invalidRequest } from '../errors.js';

/** A receiver URL: absolute, http or https, no credentials in it (they would be logged and listed). */
export function checkWebhookUrl(value: string): string {
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
  return url.href;
}
