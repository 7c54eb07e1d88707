/**
 * The part of zod that `@tfpipe/node-utils/options` re-exports as `z`: the schema builders tfpipe's
 * option schemas and the pipeline file's schema are written with, and `toJSONSchema` for the
 * pipeline file's JSON Schema. Named one by one so that the bundle of the options entry carries only
 * them (and what they use), not zod's ISO formats, coercion, JSON Schema importer and locales. Every
 * zod type stays available (`z.output<…>`, `z.ZodType`, `z.core`); a builder left out here is a type
 * only, so using it as a value fails to compile rather than at run time.
 */
export type * from 'zod';
export {
  array,
  boolean,
  custom,
  enum,
  int,
  literal,
  number,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
} from 'zod';
