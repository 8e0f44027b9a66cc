import { ApiError } from '../api/http.ts';

/** An error as the user should read it: the API's detail (and field errors), or the exception's message. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const detail = error instanceof ApiError ? error.detail : error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  const fields = error instanceof ApiError ? error.errors : [];
  return (
    <div className="alert error" role="alert">
      {detail}
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>
              <code>{f.path}</code>: {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
