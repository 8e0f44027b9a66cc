import type { ParameterDescriptor } from '../api/types.ts';
import { ParamFieldset } from '../components/ParamForm.tsx';
import type { FormValue } from '../params/form-values.ts';

/**
 * The values every scenario of the experiment shares (the create route's `algo_params` and
 * `data_params`): the algorithm's parameters that are not varied, and the data parameters. Each starts
 * at its declared default, as in the scenario form.
 */
export function FixedValues(props: {
  algorithm: readonly ParameterDescriptor[];
  data: readonly ParameterDescriptor[];
  /** The dataset whose data parameters are shown (the first chosen). */
  dataset: string | undefined;
  algoValues: Record<string, FormValue>;
  dataValues: Record<string, FormValue>;
  algoErrors: Record<string, string>;
  dataErrors: Record<string, string>;
  onAlgo: (name: string, value: FormValue) => void;
  onData: (name: string, value: FormValue) => void;
}) {
  return (
    <>
      <ParamFieldset
        testId="fixed-algo-params"
        legend="Fixed values of the other parameters"
        descriptors={props.algorithm}
        values={props.algoValues}
        errors={props.algoErrors}
        idPrefix="fixed-algo"
        onChange={props.onAlgo}
      />
      <ParamFieldset
        testId="fixed-data-params"
        legend={`Data parameters${props.dataset ? ` (as ${props.dataset} declares them)` : ''}`}
        descriptors={props.data}
        values={props.dataValues}
        errors={props.dataErrors}
        idPrefix="fixed-data"
        onChange={props.onData}
      />
    </>
  );
}
