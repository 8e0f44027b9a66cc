/** Parameter declarations several slotting algorithms share, so they read and default the same way. */

export const depotParameters = {
  depot_x: { kind: 'float', default: 0, description: 'Depot x coordinate, metres: where every pick trip starts and ends.' },
  depot_y: { kind: 'float', default: 0, description: 'Depot y coordinate, metres.' },
} as const;

export const zoneParameters = {
  respect_zones: {
    kind: 'boolean',
    default: true,
    description: 'Keep each SKU in the zone of its current location (SKUs without one may go anywhere).',
  },
} as const;
