/** JSON requests to a real server process, failing loudly on an unexpected status. */
export function api(baseUrl: string) {
  const root = `${baseUrl}/api/v1`;
  const call = async <T>(method: string, path: string, body?: unknown, expected = [200, 201, 202, 204]): Promise<T> => {
    const res = await fetch(`${root}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    root,
    call,
    /** Creates and runs an Instant scenario; answers its id. */
    async runInstant(sid: string, tag: string): Promise<string> {
      const { id } = await call<{ id: string }>('POST', `/sessions/${sid}/scenarios`, { tag, dataset_key: 'example', algo_name: 'Instant' });
      await call('POST', `/sessions/${sid}/scenarios/${id}/run`);
      return id;
    },
    /** Creates a session holding a copy of `main`'s example dataset; answers its id. */
    async session(name: string): Promise<string> {
      const list = await call<{ sessions: { id: string; display_name: string }[] }>('POST', '/sessions', { display_name: name });
      const sid = list.sessions.find((s) => s.display_name === name)!.id;
      const form = await (await fetch(`${root}/sessions/main/data/example`)).text();
      const res = await fetch(`${root}/sessions/${sid}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form });
      if (res.status !== 201) throw new Error(`from-json: ${res.status} ${await res.text()}`);
      return sid;
    },
  };
}

/** Runs `task` over `items` with at most `width` at once. */
export async function inParallel<T, R>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}
