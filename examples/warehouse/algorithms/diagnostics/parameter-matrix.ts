import { defineAlgorithm } from '../../../../src/domain/define.js';
import type { ParamValues } from '../../../../src/params/kinds.js';
import type { WarehouseData } from '../../model.js';
import { asIsPlan } from '../../plan/as-is-plan.js';
import { planToResult } from '../../plan/plan.js';
import { slottingProblem } from '../../plan/slotting-problem.js';
import { ORIGIN, slotting, type SlottingResult } from '../../result.js';

/** One parameter of each of the eight kinds, every one with a default so the algorithm runs with none. */
const parameters = {
  int_param: { kind: 'integer', min: -100, max: 100, default: 7, description: 'An integer in [-100, 100].' },
  float_param: { kind: 'float', min: 0, default: 2.5, description: 'A float >= 0.' },
  string_param: { kind: 'string', default: 'hello', description: 'Any string.' },
  bool_param: { kind: 'boolean', default: true, description: 'A boolean.' },
  enum_param: { kind: 'enum', choices: ['red', 'green', 'blue'], default: 'green', description: 'One colour.' },
  multi_enum_param: {
    kind: 'multi_enum',
    choices: ['north', 'east', 'south', 'west'],
    default: ['north', 'south'],
    description: 'Any set of directions.',
  },
  time_param: { kind: 'time', default: '08:30', description: 'A time of day.' },
  interval_param: { kind: 'interval', default: ['2024-01-01', '2024-12-31'], description: 'A date interval.' },
} as const;

export interface ParameterMatrixResult extends SlottingResult {
  /** The validated parameter values the algorithm received, as it received them. */
  readonly echo: ParamValues<typeof parameters>;
}

/** Diagnostic: shows what the service hands an algorithm for each parameter kind. */
export const parameterMatrix = defineAlgorithm({
  name: 'Parameter Matrix',
  description: 'Diagnostic: echoes its parameter values in `result.echo`, next to the as-is slotting.',
  tags: ['diagnostic'],
  parameters,
  result: slotting,
  run(data: WarehouseData, params): ParameterMatrixResult {
    return { ...planToResult(slottingProblem(data, ORIGIN, false), asIsPlan(data)), echo: { ...params } };
  },
});
