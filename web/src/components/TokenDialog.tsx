import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useApi } from '../api/context.tsx';
import { Modal } from './Modal.tsx';

/** Asks for the API token when the server answers 401 (or on demand); kept in this browser only. */
export function TokenDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="API token" onClose={onClose}>
      {open && <TokenForm onClose={onClose} />}
    </Modal>
  );
}

function TokenForm({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const client = useQueryClient();
  const [value, setValue] = useState(api.config.token ?? '');
  const save = (event: FormEvent) => {
    event.preventDefault();
    api.config.setToken(value);
    void client.invalidateQueries();
    onClose();
  };
  return (
    <form onSubmit={save}>
      <p className="muted">This server may require a token. It is sent as <code>Authorization: Bearer</code> and stored in this browser.</p>
      <div className="field">
        <label htmlFor="token-input">Token</label>
        <input id="token-input" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <div className="dialog-actions">
        <button
          type="button"
          onClick={() => {
            api.config.setToken(null);
            void client.invalidateQueries();
            onClose();
          }}
        >
          Forget token
        </button>
        <button type="submit" className="primary">
          Save
        </button>
      </div>
    </form>
  );
}
