// The kernel's public surface: what rulesets, runners and interfaces may import.
export * from './contract.ts';
export * from './errors.ts';
export * from './json.ts';
export * from './hash.ts';
export * from './rng.ts';
export * from './text.ts';
export * from './engine.ts';
export * from './menu.ts';
export * from './package.ts';
export * from './rules-page.ts';
export * from './secrets.ts';
export * from './schema.ts';
