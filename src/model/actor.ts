/**
 * Who made a decision (published or withdrew a plan, saved a report): the token's id and name, or
 * `local` (id and name) when authentication is off and every request acts for the machine's user.
 */
export interface Actor {
  readonly id: string;
  /** The token's name; null for a token issued without one. */
  readonly name: string | null;
}

export const LOCAL_ACTOR: Actor = Object.freeze({ id: 'local', name: 'local' });
