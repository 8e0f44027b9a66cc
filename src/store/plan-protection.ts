/** The mark of the error the plan triggers raise (migration 0016): `<mark>:<what was protected>`. */
export const PLAN_PROTECTION_MARK = 'scenarist_plan_protected';

/** What a current plan protects: its scenario, its dataset, its session. */
export type ProtectedKind = 'scenario' | 'dataset' | 'session';

const PATTERN = new RegExp(`${PLAN_PROTECTION_MARK}:(scenario|dataset|session)`);

/**
 * Which protection a driver error reports, when it is one of the plan triggers' refusals (SQLite's
 * `RAISE(ABORT, ...)` and PostgreSQL's `RAISE EXCEPTION` both carry the text as the message).
 */
export function planProtectionOf(err: unknown): ProtectedKind | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const message = (err as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  return PATTERN.exec(message)?.[1] as ProtectedKind | undefined;
}
