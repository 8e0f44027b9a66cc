/**
 * `attachment` with the file name twice: an ASCII fallback for old clients, and the exact UTF-8 name
 * (RFC 6266 / 5987), since dataset keys may hold any character, quotes included.
 */
export function attachment(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
