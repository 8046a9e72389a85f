// The JSON value types alone, so a module that only names them (errors.ts) does not import json.ts,
// which throws the kernel's errors: that pair would be an import cycle.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
