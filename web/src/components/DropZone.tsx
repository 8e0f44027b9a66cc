import { useId, useRef, useState, type DragEvent } from 'react';
import { mergePicks } from '../data/merge-picks.ts';

const ACCEPT = '.csv,.json,.xlsx';

/** Files by drag and drop or by the file picker (the keyboard path); shows what is chosen, one file per group. */
export function DropZone({ files, onFiles }: { files: readonly File[]; onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles(mergePicks(files, Array.from(event.dataTransfer.files)));
  };
  return (
    <div
      className="dropzone"
      data-over={over}
      data-testid="dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p style={{ marginTop: 0 }}>Drop CSV, JSON or XLSX files here, one per group (e.g. <code>sku_data.csv</code>), or</p>
      <input
        ref={input}
        id={id}
        className="sr-only"
        type="file"
        multiple
        accept={ACCEPT}
        onChange={(e) => {
          onFiles(mergePicks(files, Array.from(e.target.files ?? [])));
          if (input.current) input.current.value = '';
        }}
      />
      {/* The input stays keyboard-focusable (visually hidden); its focus ring is drawn on this label. */}
      <label htmlFor={id} className="button file-button">
        Choose files…
      </label>
      {files.length > 0 && (
        <ul aria-label="Chosen files" style={{ textAlign: 'left' }}>
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              {f.name} <span className="muted small">({Math.ceil(f.size / 1024)} KB)</span>{' '}
              <button type="button" className="link" onClick={() => onFiles(files.filter((_, j) => j !== i))} aria-label={`Remove ${f.name}`}>
                remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
