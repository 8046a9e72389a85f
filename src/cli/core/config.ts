// Building a config from the command line: a preset, then --config JSON, then --set k=v, then
// the ruleset's own flags (--players 4), later ones winning.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ArbiterError, configFlags, type Json, type JsonObject, type RulesetPackage } from '../../kernel/index.ts';

/**
 * The config options of one ruleset's `play`/`sim`: --config, --set, --preset and one flag per
 * config field (from its config schema), so `play ground --help` shows ground's flags only.
 * Boolean fields take an optional value (`--x`, `--x false`), which sidesteps commander's rule
 * that a `--no-x` flag negates `x`.
 */
export function addConfigOptions<S, A>(cmd: Command, pkg: RulesetPackage<S, A>): Command {
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
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

export function readJsonFile(path: string): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ArbiterError('not_found', `cannot read ${path}`);
  }
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new ArbiterError('bad_config', `${path} is not valid JSON: ${(err as Error).message}`);
  }
}

export function buildConfig<S, A>(entry: RulesetPackage<S, A>, opts: Record<string, unknown>): JsonObject {
  const rulesetId = entry.ruleset.id;
  const flags = configFlags(entry.ruleset.configSchema);
  let config: JsonObject = {};
  if (typeof opts.preset === 'string') {
    const preset = entry.presets?.[opts.preset];
    if (!preset) throw new ArbiterError('not_found', `no preset "${opts.preset}" for ${rulesetId} (presets: ${Object.keys(entry.presets ?? {}).join(', ') || 'none'})`);
    config = { ...(preset as JsonObject) };
  }
  if (typeof opts.config === 'string') {
    const text = opts.config.trim();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.startsWith('{') ? text : readFileSync(text, 'utf8'));
    } catch (err) {
      throw new ArbiterError('bad_config', `--config must be a JSON object or a JSON file: ${(err as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ArbiterError('bad_config', '--config must be a JSON object');
    config = { ...config, ...(parsed as JsonObject) };
  }
  for (const kv of (opts.set as string[] | undefined) ?? []) {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw new ArbiterError('bad_config', `--set takes key=value, got "${kv}"`);
    config[kv.slice(0, eq)] = parseScalar(kv.slice(eq + 1));
  }
  for (const flag of flags) {
    const raw = opts[camel(flagName(flag.name))];
    if (raw === undefined) continue;
    const text = raw === true ? 'true' : String(raw);
    if (flag.type === 'int') {
      const n = Number(text);
      if (!Number.isInteger(n)) throw new ArbiterError('bad_config', `--${flag.name} must be an integer, got "${text}"`);
      config[flag.key] = n;
    } else if (flag.type === 'boolean') {
      if (text !== 'true' && text !== 'false') throw new ArbiterError('bad_config', `--${flag.name} must be true or false, got "${text}"`);
      config[flag.key] = text === 'true';
    } else if (flag.type === 'json-file') config[flag.key] = readJsonFile(text);
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
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new ArbiterError('bad_request', `--seed must be an integer from 0 to 4294967295, got "${text}"`);
  return n;
}

export function parseCount(text: string | undefined, name: string, fallback: number, max = 100_000_000): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ArbiterError('bad_request', `--${name} must be an integer from 1 to ${max}, got "${text}"`);
  return n;
}
