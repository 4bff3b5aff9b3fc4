import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `delay` ms (and no IME composition is under way). */
export function useDebounced<T>(value: T, delay: number, paused = false): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay, paused]);
  return settled;
}
