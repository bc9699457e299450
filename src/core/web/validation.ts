import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { FORM_DATE, FORM_DATE_OR_BLANK, isFormDate, PAGE_FORM } from './form-atoms.js';
import { pageFormKeyword, wholeNumbersKeyword } from './forms.js';

// Query strings, path params and the pages' forms (src/core/web/form-atoms.ts) are coerced from text;
// other bodies are not (a JSON `true` must not become cid 1).
// `verbose`: each error carries its schema, whose message the error handler responds with.
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };

/** String formats the features' schemas name: for bodies (`exact`), and for query strings and paths (`coercing`). */
export interface Formats {
  exact: Record<string, (text: string) => boolean>;
  coercing: Record<string, (text: string) => boolean>;
}

/** The page forms' own formats, which every coercing validator knows. */
const FORM_FORMATS: Record<string, (text: string) => boolean> = {
  [FORM_DATE]: isFormDate,
  [FORM_DATE_OR_BLANK]: (text) => text === '' || isFormDate(text),
};

const isPageForm = (schema: unknown): boolean => typeof schema === 'object' && schema !== null && PAGE_FORM in schema;

function ajvWith(options: Options, formats: Record<string, (text: string) => boolean>): Ajv {
  const ajv = new Ajv(options);
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

/** The coercing validator: the features' formats, and the page forms' own formats and keyword. */
function coercingWith(formats: Record<string, (text: string) => boolean>): Ajv {
  const ajv = ajvWith({ ...common, coerceTypes: 'array' }, { ...FORM_FORMATS, ...formats });
  ajv.addKeyword(pageFormKeyword);
  ajv.addKeyword(wholeNumbersKeyword);
  return ajv;
}

// One pair of validators per set of formats, kept for the process: every app built with the same
// formats (the tests build many) shares the schemas compiled so far.
const made = new WeakMap<Formats, { exact: Ajv; coercing: Ajv }>();

// Each validator is compiled when its route is first used, not at start: a server or CLI process
// starts without compiling the schemas of the many routes it never serves. Fastify reads `errors`
// from the function it was given, so the compiled function's errors are copied onto it.
export function validatorCompiler(formats: Formats): FastifySchemaCompiler<unknown> {
  let ajvs = made.get(formats);
  if (!ajvs)
    made.set(
      formats,
      (ajvs = {
        exact: ajvWith({ ...common, coerceTypes: false }, formats.exact),
        coercing: coercingWith(formats.coercing),
      }),
    );
  const { exact, coercing } = ajvs;
  return ({ schema, httpPart, contentType }) => {
    // A multipart body is an upload its route streams (src/core/web/uploads.ts): its schema only documents it.
    if (httpPart === 'body' && contentType === 'multipart/form-data') return () => true;
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown): boolean => {
      compiled ??= (httpPart === 'body' && !isPageForm(schema) ? exact : coercing).compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}
