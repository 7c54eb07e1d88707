import { z } from 'zod';
import { pipelineFileSchema } from './config-schema.js';

/** Where the published schema lives, for `$schema` keys and `yaml-language-server` comments. */
export const PIPELINE_SCHEMA_URL = 'https://unpkg.com/@tfpipe/pipeline/pipeline.schema.json';

type JsonObject = Record<string, unknown>;

/** Exactly one of these key sets: the checks the zod schema makes in code, said for editors. */
function exactlyOne(...keySets: readonly (readonly string[])[]): JsonObject {
  return { oneOf: keySets.map((keys) => ({ required: [...keys] })) };
}

function property(schema: JsonObject, ...path: string[]): JsonObject {
  let node = schema;
  for (const key of path) node = (node.properties as Record<string, JsonObject>)[key]!;
  return node;
}

/**
 * The JSON Schema (draft-07) of pipeline files, generated from the schema `parsePipelineConfig`
 * checks with, for editors (completion and checking of `pipeline.yaml` / `pipeline.json`). Plugin
 * options are open objects here: each plugin checks its own when the pipeline is loaded. Published
 * as `@tfpipe/pipeline/schema.json`.
 */
export function pipelineJsonSchema(): JsonObject {
  const schema = z.toJSONSchema(pipelineFileSchema, { target: 'draft-07', io: 'input' }) as JsonObject;
  const transform = (property(schema, 'transforms').items ?? {}) as JsonObject;
  Object.assign(transform, exactlyOne(['filter'], ['take'], ['sample']));
  Object.assign(property(transform, 'sample'), exactlyOne(['count'], ['fraction']));
  Object.assign(property(schema, 'split'), exactlyOne(['key', 'ratios'], ['column']));
  return {
    $schema: schema.$schema,
    $id: PIPELINE_SCHEMA_URL,
    title: 'tfpipe pipeline file',
    description:
      'A tfpipe pipeline: a source plugin and its options, a feature spec, row transforms, a split, a shuffle and a sink (tfpipe run, @tfpipe/pipeline).',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
