// The line-up the live-episode tests share (test/server/episodes.test.ts, test/web/episode.test.ts).

/** A line-up of four model seats from three providers, every one at the stand-in with its own key variable. */
export function threeProviderLineup(url: string, id = 'episode-three-providers'): string {
  return [
    `id: ${id}`,
    'version: "1"',
    'ruleset: bnc',
    'description: four model seats from three providers (the stand-in)',
    'defaults: { temperature: 0.5 }',
    'statements: ["Scarcity: three fragments, four contestants."]',
    'seats:',
    `  - { provider: openai, model: gpt-stand-in, base_url: "${url}/v1", api_key_env: EPISODE_KEY_OPENAI }`,
    `  - { provider: anthropic, model: claude-stand-in, base_url: "${url}", api_key_env: EPISODE_KEY_ANTHROPIC }`,
    `  - { provider: google, model: gemini-stand-in, base_url: "${url}", api_key_env: EPISODE_KEY_GOOGLE }`,
    `  - { provider: openai, model: gpt-stand-in-2, base_url: "${url}/v1", api_key_env: EPISODE_KEY_OPENAI }`,
    '',
  ].join('\n');
}
