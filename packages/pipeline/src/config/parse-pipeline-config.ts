import { pipelineFileSchema } from './config-schema.js';
import { validateWith } from './format-issues.js';
import { parseConfigText } from './parse-config-text.js';
import type { PipelineConfig } from './pipeline-config.js';

/** Options of {@link parsePipelineConfig}. */
export interface ParsePipelineConfigOptions {
  /**
   * The file the text came from, for error positions; its ending (`.yaml`, `.yml`) also picks YAML.
   * @default 'pipeline.json'
   */
  readonly file?: string;
  /** The text's syntax. @default 'yaml' for a `file` ending in .yaml or .yml, else 'json' */
  readonly format?: 'json' | 'yaml';
}

/**
 * Parses the text of a pipeline file (JSON, or YAML 1.2 without duplicate keys) and checks it
 * against the pipeline file schema: every key known, every value of the right type. Plugin options
 * are checked later, by the plugins' own schemas, when the pipeline is loaded.
 *
 * @throws TfpipeError `CONFIG_PARSE` (with line and column) or `CONFIG_SCHEMA` (naming the key).
 */
export async function parsePipelineConfig(
  text: string,
  options: ParsePipelineConfigOptions = {},
): Promise<PipelineConfig> {
  const file = options.file ?? 'pipeline.json';
  const raw =
    options.format === undefined
      ? parseConfigText(text, file)
      : parseConfigText(text, file, options.format === 'yaml');
  return (await validateWith(pipelineFileSchema(), raw, [], raw, file)) as PipelineConfig;
}
