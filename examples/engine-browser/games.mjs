// One seeded game of every ruleset the engine ships, played by its match engine with the built-in
// random agent in every seat. The engine comes in as an argument, so the same function runs on the
// installed package's dist/ in the page and on the engine's sources in the test that checks it.

/**
 * @typedef {{ id: string, version: string, submissions: number, events: number, hash: string, outcome: string | null }} GameSummary
 * @typedef {Pick<typeof import('@arbiter/engine'), 'PACKAGES' | 'BUILTIN_AGENTS' | 'runMatch'>} Engine
 */

/**
 * @param {Engine} engine
 * @param {number} seed
 * @returns {Promise<GameSummary[]>}
 */
export async function playEvery(engine, seed) {
  const out = [];
  for (const pkg of engine.PACKAGES) {
    const random = () => engine.BUILTIN_AGENTS.random({});
    const r = await engine.runMatch(pkg.ruleset, (n) => Array.from({ length: n }, random), { seed, pkg });
    out.push({
      id: pkg.ruleset.id,
      version: pkg.ruleset.version,
      submissions: r.footer.submissions,
      events: r.footer.events,
      hash: r.footer.hash,
      outcome: r.outcome === null ? null : r.outcome.reason,
    });
  }
  return out;
}
