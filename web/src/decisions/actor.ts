import type { Actor } from '../api/decisions.ts';

/** Who made a decision, as people read it: the token's name, else its id. */
export const actorName = (actor: Actor): string => actor.name ?? actor.id;
