import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { literalAddress, refusalMessage, type AddressPolicy } from './address-policy.js';

/** Every address a host name resolves to (injectable so tests can point a name anywhere). */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * What one POST to a receiver came to. `error` is for the delivery log, which clients read: it
 * never carries the network error's text (ECONNREFUSED, ENOTFOUND ... would map the host's network).
 */
export type ReceiverOutcome =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'refused'; readonly error: string }
  | { readonly kind: 'unreachable'; readonly error: string }
  | { readonly kind: 'aborted' };

export interface ReceiverRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
}

export const UNREACHABLE = 'the receiver could not be reached';
export const NO_ANSWER_IN_TIME = 'the receiver did not answer in time';

/**
 * POSTs to a receiver only at an address the policy accepts, and connects to exactly that address:
 * the name is resolved once, every address it resolves to is checked, and the request goes to the
 * first one (TLS still verifies the certificate against the name), so a second DNS answer cannot
 * swap in an internal address. A redirect is answered as its status, never followed.
 */
export async function postToReceiver(req: ReceiverRequest, policy: AddressPolicy, resolve: Resolver, aborted: () => boolean): Promise<ReceiverOutcome> {
  const url = new URL(req.url);
  const literal = literalAddress(url.hostname);
  let addresses: readonly string[];
  try {
    addresses = literal === undefined ? await resolve(url.hostname) : [literal];
  } catch {
    return { kind: 'unreachable', error: UNREACHABLE };
  }
  if (addresses.length === 0) return { kind: 'unreachable', error: UNREACHABLE };
  for (const address of addresses) {
    const verdict = policy.check(address);
    if (!verdict.allowed) return { kind: 'refused', error: refusalMessage(`the host ${url.hostname}`, verdict.addressClass) };
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<ReceiverOutcome>((done) => {
    const outgoing = send({
      host: addresses[0],
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      // SNI and the certificate check use the name, never the address connected to.
      ...(literal === undefined && url.protocol === 'https:' ? { servername: url.hostname } : {}),
      headers: { ...req.headers, host: url.host, 'content-length': String(Buffer.byteLength(req.body)) },
      signal: req.signal,
      agent: false,
    });
    outgoing.once('response', (res) => {
      res.resume(); // the answer's body is not read, only its status
      done({ kind: 'answered', status: res.statusCode ?? 0 });
    });
    outgoing.once('error', (err) => {
      if (aborted()) done({ kind: 'aborted' });
      else done({ kind: 'unreachable', error: err.name === 'AbortError' ? NO_ANSWER_IN_TIME : UNREACHABLE });
    });
    outgoing.end(req.body);
  });
}
