import type { ParameterDescriptor } from '../api/types.ts';
import { initialFormValue, type FormValue } from '../params/form-values.ts';
import { ParamField } from './ParamField.tsx';

/** The fields of a parameter schema, in declaration order. */
export function ParamFields(props: {
  descriptors: readonly ParameterDescriptor[];
  values: Record<string, FormValue>;
  errors: Record<string, string>;
  idPrefix: string;
  onChange: (name: string, value: FormValue) => void;
}) {
  return (
    <div className="form-grid">
      {props.descriptors.map((d) => (
        <ParamField
          key={d.name}
          descriptor={d}
          value={props.values[d.name] ?? initialFormValue(d)}
          error={props.errors[d.name]}
          idPrefix={props.idPrefix}
          onChange={(v) => props.onChange(d.name, v)}
        />
      ))}
    </div>
  );
}
