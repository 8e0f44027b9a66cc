/**
 * A fetch that answers from a table instead of the network, for component tests of what the pages do
 * with the API's answers (the end-to-end tests run the real server). It records every request.
 */
export interface Answer {
  status?: number;
  body?: unknown;
}

/** An answer from the table, or a whole Response (a stream). */
export type Route = (request: Request) => Answer | Response | Promise<Answer | Response>;

export function answeringFetch(routes: Record<string, Route>) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    const url = new URL(request.url);
    const route = routes[`${request.method} ${url.pathname}`];
    const answer = route ? await route(request) : { status: 404, body: { detail: `no route ${request.method} ${url.pathname}`, code: 'ROUTE_NOT_FOUND' } };
    if (answer instanceof Response) return answer;
    const status = answer.status ?? 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: answer.body === undefined ? {} : { 'content-type': 'application/json' },
    });
  };
  return { fetch: fetch, requests };
}
