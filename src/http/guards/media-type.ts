import type { IncomingHttpHeaders } from 'node:http';

/** The media type of a `Content-Type` header (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether the request announces a body (a non-zero Content-Length, or any Transfer-Encoding). */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** Whether a multipart Content-Type names its boundary (without one the body cannot be split). */
export function hasBoundary(contentType: string): boolean {
  return /;\s*boundary\s*=\s*("[^"]+"|[^\s;"]+)/i.test(contentType);
}
