/** Compare's page with these scenarios, the first as baseline (a plain hash link, as scenario cards use). */
export const compareHref = (sid: string, ids: readonly string[]) =>
  `#/s/${encodeURIComponent(sid)}/compare?ids=${encodeURIComponent(ids.join(','))}&baseline=${encodeURIComponent(ids[0] ?? '')}`;
