/** Parts joined until about `size` bytes are pending: what `batched` and `batchedAsync` share. */
class Pending {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly size: number) {}

  /** Adds a part; returns a chunk once enough is pending. */
  add(part: string): string | undefined {
    this.parts.push(part);
    this.length += part.length;
    return this.length >= this.size ? this.take() : undefined;
  }

  /** What is left, if anything. */
  rest(): string | undefined {
    return this.parts.length > 0 ? this.take() : undefined;
  }

  private take(): string {
    const chunk = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return chunk;
  }
}

/** Joins many small strings into chunks of about `size` bytes, so streams move few large buffers. */
export function* batched(parts: Iterable<string>, size = 64 * 1024): Generator<string> {
  const pending = new Pending(size);
  for (const part of parts) {
    const chunk = pending.add(part);
    if (chunk !== undefined) yield chunk;
  }
  const rest = pending.rest();
  if (rest !== undefined) yield rest;
}

/** `batched` over parts that arrive asynchronously (rows read from the database a page at a time). */
export async function* batchedAsync(parts: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  const pending = new Pending(size);
  for await (const part of parts) {
    const chunk = pending.add(part);
    if (chunk !== undefined) yield chunk;
  }
  const rest = pending.rest();
  if (rest !== undefined) yield rest;
}
