import type { OptionsJsonSchemaConverter, PluginDefinition, StagedOptionsSchema } from '@tfpipe/core/plugin';
import { z } from '@tfpipe/node-utils/options';
import { knownPlugins } from '../plugins/resolve-plugin.js';
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

/** A plugin's options as JSON Schema, from the definitions its code checks with, when its schema library makes one. */
function optionsJsonSchema(definition: PluginDefinition): JsonObject | undefined {
  const options = definition.options as Partial<StagedOptionsSchema<unknown>>;
  const converter = (definition.options['~standard'] as { jsonSchema?: OptionsJsonSchemaConverter })
    .jsonSchema;
  const schema =
    typeof options.jsonSchema === 'function'
      ? options.jsonSchema()
      : converter?.input({ target: 'draft-07' });
  if (schema === undefined) return undefined;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
}

/**
 * The JSON Schema (draft-07) of pipeline files, generated from the schema `parsePipelineConfig`
 * checks with and from the option schemas of the plugins tfpipe knows by name that are installed
 * (each plugin's `options` under `source` or `sink`, by its package and short names), for editors:
 * completion and checking of `pipeline.yaml` / `pipeline.json`. Other plugins' options are open
 * objects; every plugin checks its own when the pipeline is loaded. Published as
 * `@tfpipe/pipeline/schema.json`.
 */
export async function pipelineJsonSchema(): Promise<JsonObject> {
  const schema = z.toJSONSchema(pipelineFileSchema(), { target: 'draft-07', io: 'input' }) as JsonObject;
  for (const { names, definition } of await knownPlugins()) {
    const options = optionsJsonSchema(definition);
    if (options === undefined) continue;
    const place = property(schema, definition.kind);
    place.allOf = [
      ...((place.allOf as JsonObject[] | undefined) ?? []),
      { if: { properties: { plugin: { enum: names } } }, then: { properties: { options } } },
    ];
  }
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
