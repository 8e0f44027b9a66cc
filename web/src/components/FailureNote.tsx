/**
 * A failure's message: its first line always, the rest (a stack trace, say) only behind "details", so
 * a long trace neither buries the message nor widens the page on a phone.
 */
export function FailureNote({ code, message }: { code?: string | null; message: string }) {
  const [first, ...rest] = message.split('\n');
  return (
    <div className="alert error failure" data-testid="failure">
      {code && <code>{code}</code>} {first}
      {rest.length > 0 && (
        <details>
          <summary>details</summary>
          <pre className="trace">{rest.join('\n')}</pre>
        </details>
      )}
    </div>
  );
}
