import type { ReactNode } from 'react';

/**
 * A small markdown renderer whose output is React elements, never HTML strings: whatever a view's text
 * holds (tags included) is shown as text. Understood: paragraphs, headings (#), bullet and numbered
 * lists, fenced code blocks, block quotes, `code`, **strong**, *emphasis*, and [links](url) whose
 * protocol is http, https or mailto (or relative); a link to anything else shows its text only.
 */
export function Markdown({ source }: { source: string }) {
  return <div className="markdown">{blocks(source.replace(/\r\n?/g, '\n'))}</div>;
}

/** One line of markdown inside running text (a table cell, a hint): `code`, **strong**, *emphasis* and links, no blocks. */
export function InlineMarkdown({ source }: { source: string }) {
  return <>{inline(source)}</>;
}

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The link's URL when it is safe to follow (relative, http, https, mailto), else null. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  // Control characters and spaces can hide a scheme ("java\tscript:"): refuse them outright.
  if ([...trimmed].some((c) => c.charCodeAt(0) <= 0x20)) return null;
  try {
    const url = new URL(trimmed, 'https://relative.invalid/');
    return SAFE_PROTOCOLS.has(url.protocol) ? trimmed : null;
  } catch {
    return null;
  }
}

function blocks(text: string): ReactNode[] {
  const lines = text.split('\n');
  const out: ReactNode[] = [];
  let i = 0;
  const key = () => `b${out.length}`;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end)
      out.push(
        <pre key={key()} className="code">
          <code>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      // Headings inside a view sit below the view's own title (h3): start at h4.
      const level = Math.min(6, heading[1]!.length + 3);
      const Tag = `h${level}` as 'h4' | 'h5' | 'h6';
      out.push(<Tag key={key()}>{inline(heading[2]!.replace(/\s*#+\s*$/, ''))}</Tag>);
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      out.push(<blockquote key={key()}>{blocks(body.join('\n'))}</blockquote>);
      continue;
    }
    const bullet = /^\s*[-*+]\s+/;
    const numbered = /^\s*\d+[.)]\s+/;
    if (bullet.test(line) || numbered.test(line)) {
      const marker = bullet.test(line) ? bullet : numbered;
      const items: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== '') {
        const l = lines[i]!;
        if (marker.test(l)) items.push(l.replace(marker, ''));
        else if (items.length > 0 && !bullet.test(l) && !numbered.test(l)) items[items.length - 1] += ` ${l.trim()}`;
        else break;
        i++;
      }
      const children = items.map((item, n) => <li key={n}>{inline(item)}</li>);
      out.push(marker === bullet ? <ul key={key()}>{children}</ul> : <ol key={key()}>{children}</ol>);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,6}\s|\s*(```|~~~)|\s*>|\s*[-*+]\s|\s*\d+[.)]\s)/.test(lines[i]!)) {
      para.push(lines[i++]!.trim());
    }
    if (para.length === 0) para.push(lines[i++]!.trim());
    out.push(<p key={key()}>{inline(para.join(' '))}</p>);
  }
  return out;
}

// The first of: `code`, **strong**, __strong__, *em*, _em_, [text](url).
const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*(?=\S)(.+?)\*|\b_(?=\S)(.+?)_\b|\[([^\]]+)\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/;

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let rest = text;
  while (rest.length > 0) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const k = `i${out.length}`;
    const [, code, strong1, strong2, em1, em2, linkText, href] = m;
    if (code !== undefined) out.push(<code key={k}>{code}</code>);
    else if (strong1 !== undefined || strong2 !== undefined) out.push(<strong key={k}>{inline(strong1 ?? strong2!)}</strong>);
    else if (em1 !== undefined || em2 !== undefined) out.push(<em key={k}>{inline(em1 ?? em2!)}</em>);
    else {
      const safe = safeHref(href!);
      out.push(
        safe === null ? (
          <span key={k}>{inline(linkText!)}</span>
        ) : (
          <a key={k} href={safe} rel="noopener noreferrer" target={safe.startsWith('#') ? undefined : '_blank'}>
            {inline(linkText!)}
          </a>
        ),
      );
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}
