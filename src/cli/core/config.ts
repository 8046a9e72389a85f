// Building a config from the command line: a preset, then --config JSON, then --set k=v, then
// the ruleset's own flags (--players 4), later ones winning.

import { readFileSync } from 'node:fs';
import { ArbiterError, configFlags, type ConfigFlag, type Json, type JsonObject } from '../../kernel/index.ts';
import { REGISTRY, getPackage } from '../../registry.ts';

export function allFlags(): ConfigFlag[] {
  const seen = new Map<string, ConfigFlag>();
  for (const e of REGISTRY.values()) for (const f of configFlags(e.ruleset.configSchema)) if (!seen.has(f.name)) seen.set(f.name, f);
  return [...seen.values()];
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

export function buildConfig(rulesetId: string, opts: Record<string, unknown>): JsonObject {
  const entry = getPackage(rulesetId);
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
    const raw = opts[camel(flag.name)];
    if (raw === undefined) continue;
    const text = String(raw);
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
  // a flag given for a ruleset that does not have it is a mistake worth saying
  for (const flag of allFlags()) {
    if (opts[camel(flag.name)] !== undefined && !flags.some((f) => f.name === flag.name)) {
      throw new ArbiterError('bad_config', `--${flag.name} does not apply to ${rulesetId}`);
    }
  }
  return config;
}

export function camel(name: string): string {
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
