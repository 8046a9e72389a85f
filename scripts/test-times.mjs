// A test reporter for scripts/run-tests.mjs: the time of each test file, as the sum of its top-level
// tests' durations (module loading before the first test is not in it), slowest first, one per line.
/** @param {AsyncIterable<{ type: string; data: { nesting: number; file?: string; details?: { duration_ms?: number } } }>} source */
export default async function* fileTimes(source) {
  const byFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const f = event.data.file;
      byFile.set(f, (byFile.get(f) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...byFile].sort((a, b) => b[1] - a[1]);
  for (const [file, ms] of rows)
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}\n`;
}
