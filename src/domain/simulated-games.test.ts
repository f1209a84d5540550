import { describe, expect, it } from 'vitest';
import { hoursAndMinutes, simulatedGameSpan, SIMULATED_GAME_MINUTES } from './simulated-games.ts';

describe('the simulated games’ lengths', () => {
  it('span the shortest and the longest league', () => {
    expect(simulatedGameSpan()).toEqual({
      shortest: Math.min(...Object.values(SIMULATED_GAME_MINUTES)),
      longest: Math.max(...Object.values(SIMULATED_GAME_MINUTES)),
    });
    expect(simulatedGameSpan().shortest).toBeLessThan(simulatedGameSpan().longest);
  });

  it('are said in hours and minutes', () => {
    expect(hoursAndMinutes(115)).toBe('1 h 55 min');
    expect(hoursAndMinutes(195)).toBe('3 h 15 min');
    expect(hoursAndMinutes(120)).toBe('2 h');
    expect(hoursAndMinutes(45)).toBe('45 min');
  });
});
