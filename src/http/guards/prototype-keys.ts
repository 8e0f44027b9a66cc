/**
 * Keys that would change an object's prototype if code copied the body by assignment
 * (`target[key] = value`): `__proto__`, and `constructor` holding an object with a `prototype`. JSON.parse
 * itself keeps them as plain data, so they are refused after the parse, by name (Fastify's parser
 * refused them too, but as "not valid JSON", which sent clients looking for a syntax error).
 */

/** Whether the text can hold such a key at all: spelled out, or hidden behind a `\u` escape. Saves the walk for nearly every body. */
export function mayHoldPrototypeKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

/**
 * The dotted path of the first prototype key in a parsed JSON value (`algo_params.__proto__`,
 * `axes.constructor.prototype`), if any. Recursive: only ever called on a body whose depth is bounded.
 */
export function pathOfPrototypeKey(value: unknown, path = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  if (Object.hasOwn(value, '__proto__')) return at('__proto__');
  const { constructor } = value as { constructor?: unknown };
  if (Object.hasOwn(value, 'constructor') && typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype')) {
    return at('constructor.prototype');
  }
  for (const [key, item] of Object.entries(value)) {
    const found = pathOfPrototypeKey(item, at(key));
    if (found !== undefined) return found;
  }
  return undefined;
}
