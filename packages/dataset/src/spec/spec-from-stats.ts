import { readerSpec } from '@tfpipe/core';
import type { DatasetStats, FeatureParseSpec } from '@tfpipe/core';
import type { DefaultJson, FeatureSpecJson, SpecJson } from './spec-json.js';

/** A spec generated from a dataset's statistics, with why some features got a weaker spec. */
export interface GeneratedSpec {
  /** The spec, in its JSON form (a `--spec` file). */
  readonly spec: SpecJson;
  /** Feature name → why it is a `varLen` (missing from some records, lengths vary) or left out (mixed kinds). */
  readonly notes: Readonly<Record<string, string>>;
  /** Features (or feature lists) no single spec parses, left out of {@link GeneratedSpec.spec}. */
  readonly skipped: readonly string[];
}

function featureJson(spec: FeatureParseSpec): FeatureSpecJson | undefined {
  switch (spec.parser) {
    case 'fixed':
      return { type: 'fixedLen', shape: [...spec.shape], dtype: spec.dtype };
    case 'varlen':
      return { type: 'varLen', dtype: spec.dtype };
    case 'sequence':
      return {
        type: 'fixedLenSequence',
        shape: [...spec.shape],
        dtype: spec.dtype,
        ...(spec.allowMissing ? { allowMissing: true } : {}),
      };
    case 'skip':
      return undefined;
  }
}

/**
 * The strictest `@tfpipe/dataset` spec every record seen parses with, chosen as `tfpipe schema --format
 * tf` chooses TensorFlow's (core's `readerSpec`): `fixedLen` where a feature is in every record with
 * one length (`[]` for one value), `varLen` otherwise; for SequenceExample feature lists,
 * `fixedLenSequence` where every step has one length. int64 features stay `'int64'` (exact).
 */
export function specFromStats(stats: DatasetStats): GeneratedSpec {
  const reader = readerSpec(stats);
  const notes = Object.create(null) as Record<string, string>;
  const skipped: string[] = [];
  const collect = (specs: readonly FeatureParseSpec[]): Record<string, FeatureSpecJson> => {
    const json = Object.create(null) as Record<string, FeatureSpecJson>;
    for (const spec of specs) {
      if (spec.note !== undefined) notes[spec.name] = spec.note;
      const feature = featureJson(spec);
      if (feature === undefined) skipped.push(spec.name);
      else json[spec.name] = feature;
    }
    return json;
  };
  const features = collect(reader.features);
  const spec: SpecJson =
    reader.payloadType === 'SequenceExample'
      ? { features, featureLists: collect(reader.featureLists) }
      : { features };
  return { spec, notes, skipped };
}

/** A TypeScript string literal (JSON's escapes are TypeScript's). */
function literal(text: string): string {
  return JSON.stringify(text);
}

function key(name: string): string {
  // `__proto__: …` in an object literal sets the prototype; a computed key is a plain property.
  if (name === '__proto__') return `[${literal(name)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
}

function defaultCode(value: DefaultJson, dtype: string): string {
  if (Array.isArray(value))
    return `[${value.map((item) => defaultCode(item as DefaultJson, dtype)).join(', ')}]`;
  if (dtype === 'string') return literal(String(value));
  // An int64 default beyond 2^53 is a bigint literal, exact.
  if (typeof value === 'string') return `${value}n`;
  return Object.is(value, -0) ? '-0' : String(value);
}

function dims(shape: number | readonly number[]): string {
  return typeof shape === 'number' ? String(shape) : `[${shape.join(', ')}]`;
}

function featureCode(spec: FeatureSpecJson, used: Set<string>): string {
  used.add(spec.type);
  const dtype = `'${spec.dtype}'`;
  switch (spec.type) {
    case 'fixedLen':
      return `fixedLen(${dims(spec.shape)}, ${dtype}${
        spec.default === undefined ? '' : `, { default: ${defaultCode(spec.default, spec.dtype)} }`
      })`;
    case 'varLen':
      return `varLen(${dtype})`;
    case 'sparse': {
      const indexKey =
        typeof spec.indexKey === 'string'
          ? literal(spec.indexKey)
          : `[${spec.indexKey.map(literal).join(', ')}]`;
      return `sparse({ indexKey: ${indexKey}, valueKey: ${literal(spec.valueKey)}, dtype: ${dtype}, size: ${dims(
        spec.size,
      )}${spec.alreadySorted === true ? ', alreadySorted: true' : ''} })`;
    }
    case 'ragged': {
      const options: string[] = [];
      if (spec.valueKey !== undefined) options.push(`valueKey: ${literal(spec.valueKey)}`);
      if (spec.partitions !== undefined && spec.partitions.length > 0) {
        const partitions = spec.partitions.map((partition) => {
          used.add(partition.type);
          return partition.type === 'uniformRowLength'
            ? `uniformRowLength(${partition.length})`
            : `${partition.type}(${literal(partition.key)})`;
        });
        options.push(`partitions: [${partitions.join(', ')}]`);
      }
      return `ragged(${dtype}${options.length === 0 ? '' : `, { ${options.join(', ')} }`})`;
    }
    case 'fixedLenSequence': {
      const options: string[] = [];
      if (spec.allowMissing === true) options.push('allowMissing: true');
      if (spec.default !== undefined) options.push(`default: ${defaultCode(spec.default, spec.dtype)}`);
      return `fixedLenSequence(${dims(spec.shape)}, ${dtype}${options.length === 0 ? '' : `, { ${options.join(', ')} }`})`;
    }
  }
}

function objectCode(
  name: string,
  specs: Readonly<Record<string, FeatureSpecJson>>,
  notes: Readonly<Record<string, string>>,
  skipped: readonly string[],
  used: Set<string>,
): string[] {
  const lines = [`export const ${name} = {`];
  for (const [feature, spec] of Object.entries(specs)) {
    const note = notes[feature];
    lines.push(
      `  ${key(feature)}: ${featureCode(spec, used)},${note === undefined ? '' : ` // ${oneLine(note)}`}`,
    );
  }
  for (const feature of skipped)
    lines.push(`  // ${literal(feature)}: ${oneLine(notes[feature] ?? 'no spec')}`);
  lines.push('};');
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, ' ');
}

/** Options of {@link specTypeScript}. */
export interface SpecTypeScriptOptions {
  /** Comments beside features, by name (e.g. {@link GeneratedSpec.notes}). @default {} */
  readonly notes?: Readonly<Record<string, string>>;
  /** Feature names to list as comments, unparsed (e.g. {@link GeneratedSpec.skipped}). @default [] */
  readonly skipped?: readonly string[];
  /** The module the factories are imported from. @default '@tfpipe/dataset' */
  readonly module?: string;
}

/**
 * TypeScript source declaring a spec: `export const spec = { label: fixedLen([], 'int64'), … }` and
 * `export const parser = parseExample(spec)` (for a spec with `featureLists`: `context`, `featureLists`
 * and `parseSequenceExample(context, featureLists)`). The spec types the parsed batch without casts.
 */
export function specTypeScript(spec: SpecJson, options: SpecTypeScriptOptions = {}): string {
  const notes = options.notes ?? {};
  const skipped = options.skipped ?? [];
  const used = new Set<string>();
  const isSequence = spec.featureLists !== undefined;
  const body = isSequence
    ? objectCode('context', spec.features, notes, skipped, used).concat(
        '',
        objectCode('featureLists', spec.featureLists ?? {}, notes, [], used),
        '',
        'export const parser = parseSequenceExample(context, featureLists);',
      )
    : objectCode('spec', spec.features, notes, skipped, used).concat(
        '',
        'export const parser = parseExample(spec);',
      );
  used.add(isSequence ? 'parseSequenceExample' : 'parseExample');
  const imports = [...used].sort();
  return [`import { ${imports.join(', ')} } from ${literal(options.module ?? '@tfpipe/dataset')};`, '']
    .concat(body)
    .join('\n')
    .concat('\n');
}

/**
 * The TypeScript spec of a dataset from its statistics ({@link specFromStats} then
 * {@link specTypeScript}, with the generated notes and skipped features as comments): what
 * `tfpipe schema --format ts` prints and `tfpipe view` shows.
 * @param module - the module the factories are imported from. @default '@tfpipe/dataset'
 */
export function specTypeScriptFromStats(stats: DatasetStats, module?: string): string {
  const generated = specFromStats(stats);
  return specTypeScript(generated.spec, {
    notes: generated.notes,
    skipped: generated.skipped,
    ...(module === undefined ? {} : { module }),
  });
}
