// Building a config from the command line: a preset, then --config JSON, then --set k=v, then
// the ruleset's own flags (--players 4), later ones winning.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Command } from 'commander';
import {
  ArbiterError,
  assertNoPrototypeKeys,
  configFlags,
  findNonFiniteNumber,
  isPrototypeKey,
  type Json,
  type JsonObject,
  type RulesetPackage,
} from '@arbiter/engine/kernel';

/**
 * The config options of one ruleset's `play`/`sim`: --config, --set, --preset and one flag per
 * config field (from its config schema), so `play ground --help` shows ground's flags only.
 * Boolean fields take an optional value (`--x`, `--x false`), which sidesteps commander's rule
 * that a `--no-x` flag negates `x`.
 */
export function addConfigOptions<S, A extends Json>(cmd: Command, pkg: RulesetPackage<S, A>): Command {
  cmd
    .option('-c, --config <json>', 'config as a JSON object (or a path to a JSON file)')
    .option('--set <key=value...>', 'set one config field (repeatable)');
  const presets = Object.keys(pkg.presets);
  if (presets.length) cmd.option('--preset <name>', `a named config the ruleset ships: ${presets.join(', ')}`);
  for (const f of configFlags(pkg.ruleset.configSchema)) {
    const value = f.type === 'json-file' ? ' <path>' : f.type === 'boolean' ? ' [true|false]' : ' <value>';
    cmd.option(`--${flagName(f.name)}${value}`, `${f.description} (sets config.${f.key})`);
  }
  return cmd;
}

/** A config field called no_x would read as a negation to commander; it gets --set-no-x instead. */
function flagName(name: string): string {
  return name.startsWith('no-') ? `set-${name}` : name;
}

function parseScalar(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Largest JSON file (a --config file, an edition) read from the command line. */
export const MAX_JSON_FILE = 16 * 1024 * 1024;

/** Read a text file no larger than `max` bytes; a larger one is refused before it is read. */
export function readTextFile(path: string, max: number, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ArbiterError('not_found', `${what} ${path} does not exist`);
    throw new ArbiterError('bad_request', `cannot read ${what} ${path}: ${code ?? (err as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new ArbiterError('bad_request', `${what} ${path} is a folder`);
    if (st.size > max)
      throw new ArbiterError('too_large', `${what} ${path} is ${st.size} bytes, over the limit of ${max}`, {
        bytes: st.size,
        max,
      });
    // read at most max + 1 bytes, so a file that grows (or a pipe) cannot exceed the limit either
    const buf = Buffer.alloc(Math.min(max + 1, Math.max(st.size, 65536)));
    let n = 0;
    for (;;) {
      if (n === buf.length) break;
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (n > max) throw new ArbiterError('too_large', `${what} ${path} is over the limit of ${max} bytes`, { max });
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Parse JSON from the command line or a file, refusing prototype keys and overflowing numbers. */
function parseSafeJson(text: string, where: string): Json {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new ArbiterError('bad_config', `${where} is not valid JSON: ${(err as Error).message}`);
  }
  assertNoPrototypeKeys(v, where, 'bad_config');
  const inf = findNonFiniteNumber(v);
  if (inf !== null)
    throw new ArbiterError(
      'bad_config',
      `${where}: the number at "${inf}" is too large for JSON (it reads as Infinity)`,
      { path: inf },
    );
  return v as Json;
}

export function readJsonFile(path: string, what = 'file'): Json {
  return parseSafeJson(readTextFile(path, MAX_JSON_FILE, what), `${what} ${path}`);
}

export function buildConfig<S, A extends Json>(entry: RulesetPackage<S, A>, opts: Record<string, unknown>): JsonObject {
  const rulesetId = entry.ruleset.id;
  const flags = configFlags(entry.ruleset.configSchema);
  let config: JsonObject = {};
  if (typeof opts.preset === 'string') {
    const preset = entry.presets?.[opts.preset];
    if (!preset)
      throw new ArbiterError(
        'not_found',
        `no preset "${opts.preset}" for ${rulesetId} (presets: ${Object.keys(entry.presets ?? {}).join(', ') || 'none'})`,
      );
    assertNoPrototypeKeys(preset, `preset ${opts.preset}`, 'bad_config');
    config = { ...preset };
  }
  if (typeof opts.config === 'string') {
    const text = opts.config.trim();
    const parsed = text.startsWith('{') ? parseSafeJson(text, '--config') : readJsonFile(text, '--config file');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new ArbiterError('bad_config', '--config must be a JSON object');
    config = { ...config, ...parsed };
  }
  for (const kv of (opts.set as string[] | undefined) ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new ArbiterError('bad_config', `--set takes key=value, got "${kv}"`);
    const key = kv.slice(0, eq);
    if (isPrototypeKey(key))
      throw new ArbiterError(
        'bad_config',
        `--set: the key "${key}" is not allowed (__proto__, constructor and prototype are refused)`,
        { key },
      );
    const value = parseScalar(kv.slice(eq + 1));
    assertNoPrototypeKeys(value, `--set ${key}`, 'bad_config');
    if (findNonFiniteNumber(value) !== null)
      throw new ArbiterError('bad_config', `--set ${key}: a number too large for JSON (it reads as Infinity)`);
    // defineProperty: a plain own data property whatever the key (never a setter on the prototype)
    Object.defineProperty(config, key, { value, enumerable: true, writable: true, configurable: true });
  }
  for (const flag of flags) {
    const raw = opts[camel(flagName(flag.name))];
    if (raw === undefined) continue;
    const text = raw === true ? 'true' : String(raw);
    if (flag.type === 'int') {
      const n = Number(text);
      if (!Number.isInteger(n))
        throw new ArbiterError('bad_config', `--${flag.name} must be an integer, got "${text}"`);
      config[flag.key] = n;
    } else if (flag.type === 'boolean') {
      if (text !== 'true' && text !== 'false')
        throw new ArbiterError('bad_config', `--${flag.name} must be true or false, got "${text}"`);
      config[flag.key] = text === 'true';
    } else if (flag.type === 'json-file') config[flag.key] = readJsonFile(text, `--${flag.name}`);
    else config[flag.key] = text;
  }
  return config;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function parseSeed(text: string | undefined, fallback = 1): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
    throw new ArbiterError('bad_request', `--seed must be an integer from 0 to 4294967295, got "${text}"`);
  return n;
}

export function parseCount(text: string | undefined, name: string, fallback: number, max = 100_000_000): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ArbiterError('bad_request', `--${name} must be an integer from 1 to ${max}, got "${text}"`);
  return n;
}
