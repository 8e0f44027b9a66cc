/** A scenario page's address in the dashboard (its hash route), for a chart's point to open. */
export const scenarioHref = (sid: string, id: string): string => `#/s/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(id)}`;
