import type { ReactNode } from 'react';
import type { ParameterDescriptor } from '../api/types.ts';
import { initialFormValue, type FormValue } from '../params/form-values.ts';
import { ParamField } from './ParamField.tsx';

interface ParamFieldsProps {
  descriptors: readonly ParameterDescriptor[];
  values: Record<string, FormValue>;
  errors: Record<string, string>;
  idPrefix: string;
  onChange: (name: string, value: FormValue) => void;
}

/** The fields of a parameter schema, in declaration order. */
export function ParamFields(props: ParamFieldsProps) {
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

/** A group of parameter fields under its legend (the algorithm's, the dataset's); nothing when the schema has no parameter. */
export function ParamFieldset({ legend, testId, ...fields }: ParamFieldsProps & { legend: ReactNode; testId?: string }) {
  if (fields.descriptors.length === 0) return null;
  return (
    <fieldset data-testid={testId}>
      <legend>{legend}</legend>
      <ParamFields {...fields} />
    </fieldset>
  );
}
