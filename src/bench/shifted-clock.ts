/**
 * Simulated wall time for the context benchmark: the user's pauses between turns (minutes, some
 * longer than the prompt cache's five-minute lifetime) must not be waited for, yet panto (session
 * timestamps, the clearing's cache-lifetime judgement) and the fake server's cache must see them
 * alike. So the process's Date runs ahead of the real clock by the pauses so far. Timers are
 * unaffected (they do not read Date); the shift is only moved between turns, when nothing is in flight.
 */
export interface ShiftedClock {
  /** Moves every later Date reading forward by `ms`. */
  advance(ms: number): void;
  /** Puts the real Date back. */
  restore(): void;
}

export function installShiftedClock(): ShiftedClock {
  const RealDate = globalThis.Date;
  let offsetMs = 0;
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offsetMs);
      else super(...(args as [number]));
    }

    static override now(): number {
      return RealDate.now() + offsetMs;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
  return {
    advance: (ms) => {
      offsetMs += ms;
    },
    restore: () => {
      globalThis.Date = RealDate;
    },
  };
}
