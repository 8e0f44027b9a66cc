import type { Api, ExportFormat } from './client.ts';
import { toApiError } from './http.ts';

/**
 * A complete scenario's result as a file: `GET .../result?format=csv|xlsx` (the export takes the result's
 * first table view). Through the API's fetch and base, so the token travels as for every call.
 */
export async function downloadResult(api: Api, sid: string, id: string, format: ExportFormat): Promise<Blob> {
  const url = `${api.baseUrl}/sessions/${encodeURIComponent(sid)}/scenarios/${encodeURIComponent(id)}/result?format=${format}`;
  const response = await api.fetch(url, { headers: api.config.headers() });
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw toApiError(api.config, response, body);
  }
  const blob = await response.blob();
  // A server that cannot export the result this way answers JSON: say so instead of saving it as a file.
  if (blob.type.includes('json')) throw new Error(`this server does not export this result as ${format.toUpperCase()}`);
  return blob;
}
