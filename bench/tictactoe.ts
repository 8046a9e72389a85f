import type { BenchCase } from './types.ts';
// filled in by the foundation work (engine vs plain loop vs boardgame.io)
export const cases: BenchCase[] = [];
