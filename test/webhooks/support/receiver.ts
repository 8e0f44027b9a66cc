import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A real HTTP receiver of webhook requests on a given port; answers `status` to each. */
export interface Receiver {
  readonly requests: ReceivedRequest[];
  status: number;
  /** Waits until `check` holds on the requests received so far. */
  waitFor(check: (requests: readonly ReceivedRequest[]) => boolean, ms?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(port: number): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const listeners = new Set<() => void>();
  const receiver: Receiver = {
    requests,
    status: 204,
    waitFor: (check, ms = 60_000, what = 'the expected requests') =>
      new Promise<void>((resolve, reject) => {
        const test = () => {
          if (!check(requests)) return;
          clearTimeout(timer);
          listeners.delete(test);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(test);
          reject(new Error(`timed out waiting for ${what}; got ${requests.length} requests`));
        }, ms);
        listeners.add(test);
        test();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.status).end();
      for (const listener of listeners) listener();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return receiver;
}
