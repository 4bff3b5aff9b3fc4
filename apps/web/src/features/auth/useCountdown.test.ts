import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useCountdown } from './useCountdown.ts';

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts down once a second and ends', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current.active).toBe(false);
    act(() => result.current.start(3));
    expect(result.current.remaining).toBe(3);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.remaining).toBe(2);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.remaining).toBe(1);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current.remaining).toBe(0);
    expect(result.current.active).toBe(false);
  });

  it('restarts with a new duration (the server’s retryAfter)', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(60));
    act(() => void vi.advanceTimersByTime(10_000));
    expect(result.current.remaining).toBe(50);
    act(() => result.current.start(5));
    expect(result.current.remaining).toBe(5);
  });
});
