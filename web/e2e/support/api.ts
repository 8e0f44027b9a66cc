/** Direct API calls from the test (to check what the UI shows against what the server says). */
export async function apiGet<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}
