import type { Scenario } from '../api/types.ts';
import { ProgressBar } from './ProgressBar.tsx';

/** A run's progress bar and percentage, shown while it runs and, full, once it is complete. */
export function RunProgress({ scenario: s, active }: { scenario: Scenario; active: boolean }) {
  if (!active && s.status !== 'COMPLETE') return null;
  const value = s.status === 'COMPLETE' ? 1 : s.progress;
  return (
    <div className="row small">
      <div style={{ flex: 1 }}>
        <ProgressBar value={value} label={`Progress of ${s.tag}`} />
      </div>
      <span data-testid="progress">{Math.round(value * 100)}%</span>
    </div>
  );
}
