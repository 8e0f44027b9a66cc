/** Joins many small strings into chunks of about `size` bytes, so streams move few large buffers. */
export function* batched(parts: Iterable<string>, size = 64 * 1024): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const part of parts) {
    pending.push(part);
    length += part.length;
    if (length >= size) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (pending.length > 0) yield pending.join('');
}
