/**
 * A confirmation step for destructive actions, on the native modal <dialog> (focus is kept inside it and
 * Escape cancels). With `reasonLabel` it also asks for a reason, which the action receives.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface ConfirmProps {
  title: string;
  message: string;
  confirmLabel: string;
  reasonLabel?: string;
  onConfirm: (reason: string) => Promise<void> | void;
  onClose: () => void;
}

export function Confirm({ title, message, confirmLabel, reasonLabel, onConfirm, onClose }: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const reasonInput = useRef<HTMLInputElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    // Focus starts on the reason when one is asked for, else on Cancel: Enter alone never destroys anything.
    (reasonInput.current ?? cancel.current)?.focus();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // A confirmation can sit inside a view's own form: its submit must not reach that form.
    e.stopPropagation();
    try {
      await onConfirm(reason.trim());
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onClose={onClose} className="confirm">
      <form onSubmit={(e) => void submit(e)}>
        <h2 id="confirm-title">{title}</h2>
        <p>{message}</p>
        {reasonLabel && (
          <>
            <label htmlFor="confirm-reason">{reasonLabel}</label>
            <input id="confirm-reason" ref={reasonInput} required value={reason} onChange={(e) => setReason(e.target.value)} />
          </>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="button" ref={cancel} className="secondary" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="danger">
            {confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A danger button that asks first: it opens a {@link Confirm} with `confirm` and runs its action on confirmation. */
export function ConfirmButton({ confirm, children }: { confirm: Omit<ConfirmProps, 'onClose'>; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        {children}
      </button>
      {/* In a portal: the button may sit inside a view's form, and a form inside a form is not valid HTML. */}
      {open && createPortal(<Confirm {...confirm} onClose={() => setOpen(false)} />, document.body)}
    </>
  );
}
