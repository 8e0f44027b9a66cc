/**
 * A shallow copy of an array value (multi_enum, interval); anything else is returned as is. Parameter
 * values are flat, so this is enough to keep results and descriptors from aliasing a declaration
 * whose default every run shares.
 */
export function copied(value: unknown): unknown {
  return Array.isArray(value) ? [...(value as unknown[])] : value;
}
