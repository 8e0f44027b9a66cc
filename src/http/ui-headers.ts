/**
 * What the dashboard's responses add to the security headers every response carries: a Content-Security-
 * Policy that lets the page run only its own built files, and a refusal to be framed by anyone.
 *
 * - scripts: only the build's own files (no inline script, no `eval`: Vega's expressions are interpreted
 *   from their syntax tree by vega-interpreter, web/src/views/vega-render.ts);
 * - styles: the build's stylesheet, plus inline styles: Vega's tooltip handler adds a `<style>` element
 *   of its own, and a style cannot run code;
 * - images: the build's, and `data:`/`blob:` URLs (the page's empty icon is `data:,`; charts and
 *   downloads make blob URLs);
 * - requests (fetch, event streams): the same origin only, where the API is;
 * - no plugins, no `<base>` rewriting the build's relative URLs, forms post to the same origin only;
 * - `frame-ancestors 'none'` and, for browsers that predate it, `X-Frame-Options: DENY`: no site can
 *   frame the dashboard to trick a click on its buttons.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const UI_HEADERS = Object.freeze({
  'content-security-policy': UI_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
});
