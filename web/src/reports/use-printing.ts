import { useEffect, useState } from 'react';

/**
 * True while the page is being printed (the `print` media query, which both the browser's print and a
 * print emulation switch): the report then draws its charts in the light theme, the paper's.
 */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(() => typeof matchMedia === 'function' && matchMedia('print').matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia('print');
    const follow = () => setPrinting(query.matches);
    const before = () => setPrinting(true);
    const after = () => setPrinting(query.matches);
    query.addEventListener('change', follow);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      query.removeEventListener('change', follow);
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);
  return printing;
}
