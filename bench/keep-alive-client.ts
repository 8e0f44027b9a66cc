import http from 'node:http';

/**
 * A minimal HTTP/1.1 client on one kept-alive connection. `fetch` (undici) costs about three times as
 * much per request on this kind of machine, which would make the client, not the server, the
 * measured cost of a benchmark of many small sequential requests.
 */
export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(private readonly origin: string) {}

  /** Sends a request; answers the parsed JSON body, or throws on a status other than 2xx. */
  request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { hostname, port } = new URL(this.origin);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    return new Promise<T>((resolve, reject) => {
      const req = http.request({ hostname, port, method, path, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve((text === '' ? undefined : JSON.parse(text)) as T);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
