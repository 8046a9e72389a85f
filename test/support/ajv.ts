// An independent JSON Schema validator (ajv, draft 2020-12) for checks that the schemas a ruleset
// publishes accept what its menus and configs really hold.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '../../packages/engine/src/kernel/index.ts';
import type { CompileSchema } from '../../src/runners/conformance.ts';

export const compileWithAjv: CompileSchema = (schema: JsonObject) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? null : ajv.errorsText(validate.errors));
};
