import type { AlgorithmInfo } from '../api/types.ts';

/** The choice of an algorithm among those a form offers (the create form and the experiment form). */
export function AlgorithmSelect({ id, offered, value, onChange, describedBy }: {
  id: string;
  offered: readonly Pick<AlgorithmInfo, 'name'>[];
  value: string;
  onChange: (name: string) => void;
  describedBy?: string;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={describedBy}>
      {offered.map((a) => (
        <option key={a.name} value={a.name}>
          {a.name}
        </option>
      ))}
    </select>
  );
}
