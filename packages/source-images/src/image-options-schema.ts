import type { TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import {
  namedOnce,
  optionErrorPolicy,
  optionFlag,
  optionName,
  optionNames,
  optionOneOf,
  optionsObject,
  optionWholeNumber,
  repeatedItem,
  type OptionRuleIssue,
  z,
} from '@tfpipe/node-utils/options';
import { DEFAULT_IMAGE_KEYS, type ImageKeyRole } from './image-keys.js';
import type { ImageSourceOptions } from './image-source-options.js';
import { MAX_READABLE_BYTES } from './processing/read-image-file-here.js';

/** The stage every image option error names, from code or from a pipeline file. */
export const IMAGE_OPTIONS_STAGE = 'imageSource';

/** sharp's largest side, in pixels. */
const MAX_SIDE = 16383;

/** Each role optional: a feature name, or false to leave the feature out. */
function keysShape() {
  const roles = Object.keys(DEFAULT_IMAGE_KEYS) as ImageKeyRole[];
  const error = 'expected a non-empty feature name or false';
  const name = z.union([z.string().min(1, { error }), z.literal(false)], { error });
  return z.strictObject(
    Object.fromEntries(roles.map((role) => [role, name.optional()])) as Record<
      ImageKeyRole,
      z.ZodOptional<typeof name>
    >,
    { error: `expected an object of role → feature name or false (roles: ${roles.join(', ')})` },
  );
}

/** The options a pipeline file can give too: everything but callbacks. */
function sharedShape() {
  return {
    folder: optionName(),
    list: optionName(),
    coco: optionName(),
    voc: optionName(),
    images: optionName(),
    classNames: optionNames('class names'),
    labelBase: optionWholeNumber(0),
    extensions: optionNames('extensions'),
    resize: z.strictObject(
      {
        width: optionWholeNumber(1, MAX_SIDE),
        height: optionWholeNumber(1, MAX_SIDE),
        fit: optionOneOf(['cover', 'contain', 'fill', 'inside']).optional(),
      },
      { error: 'expected { width, height, fit }' },
    ),
    channels: optionOneOf(['rgb', 'grayscale']),
    format: optionOneOf(['jpeg', 'png', 'webp']),
    quality: optionWholeNumber(1, 100),
    raw: optionFlag(),
    autoOrient: optionFlag(),
    maxPixels: optionWholeNumber(1),
    maxFileBytes: optionWholeNumber(1, MAX_READABLE_BYTES),
    allowEmpty: optionFlag(),
    exclude: optionNames('paths'),
    verify: optionOneOf(['structure', 'decode']),
    invalidBoxes: optionOneOf(['error', 'drop']),
    ignoreDifficult: optionFlag(),
    concurrency: optionWholeNumber(1),
    keys: keysShape(),
  };
}

/** Options only code can give (callbacks, the policy a pipeline file sets for the whole run, a plan's runs). */
function codeShape() {
  return {
    ...optionErrorPolicy<TfpipeError>(),
    ranges: z.custom<readonly (readonly [number, number])[]>(isRanges, {
      error: 'expected a list of [start, end] pairs of whole numbers, 0 ≤ start ≤ end',
    }),
    listingSha256: z
      .string({ error: 'expected 64 lowercase hex digits' })
      .regex(/^[0-9a-f]{64}$/, { error: 'expected 64 lowercase hex digits' }),
  };
}

/** A plan's image runs: `[start, end]` pairs of whole numbers, `0 ≤ start ≤ end`. */
function isRanges(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (range: unknown) =>
        Array.isArray(range) &&
        range.length === 2 &&
        Number.isSafeInteger(range[0]) &&
        Number.isSafeInteger(range[1]) &&
        (range[0] as number) >= 0 &&
        (range[1] as number) >= (range[0] as number),
    )
  );
}

/** The rules between keys: one input, no format for raw pixels, each class and feature name once. */
function rulesBetweenKeys(value: Record<string, unknown>): OptionRuleIssue[] {
  const issues: OptionRuleIssue[] = [];
  const inputs = ['folder', 'list', 'coco', 'voc'].filter((key) => value[key] !== undefined);
  if (inputs.length !== 1) {
    issues.push({
      message: `expected exactly one of folder, list, coco, voc (got ${inputs.length === 0 ? 'none' : inputs.join(', ')})`,
    });
  }
  if (value.format !== undefined && value.raw === true) {
    issues.push({
      path: ['format'],
      message: 'expected no format with raw: true (raw pixels are not encoded)',
    });
  }
  issues.push(...namedOnce(value.classNames, 'classNames'));
  issues.push(...keysRule(value));
  return issues;
}

/** Each feature name once across the roles, the defaults of the roles not given included. */
function keysRule(value: Record<string, unknown>): OptionRuleIssue[] {
  const keys = value.keys as Record<string, unknown> | undefined;
  if (keys === undefined) return [];
  const given = Object.entries(keys).filter((entry) => entry[1] !== undefined);
  const merged: Record<string, unknown> = { ...DEFAULT_IMAGE_KEYS, ...Object.fromEntries(given) };
  const shared = repeatedItem(Object.values(merged).filter((feature) => typeof feature === 'string'));
  if (shared === undefined) return [];
  return [
    { path: ['keys'], message: `expected each feature name once, two roles name ${JSON.stringify(shared)}` },
  ];
}

let sourceSchema: ReturnType<typeof buildSourceSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;
let keysSchema: ReturnType<typeof buildKeysSchema> | undefined;

function buildSourceSchema() {
  return optionsObject({ ...sharedShape(), ...codeShape() }, rulesBetweenKeys);
}
function buildPluginSchema() {
  return optionsObject(sharedShape(), rulesBetweenKeys);
}
function buildKeysSchema() {
  return optionsObject({ keys: keysShape() }, keysRule);
}

/** The schema of `imageSource`'s options, built on first use (zod's construction cost is paid once). */
export function imageSourceSchema(): ReturnType<typeof buildSourceSchema> {
  return (sourceSchema ??= buildSourceSchema());
}

/** The schema of the image plugin's options in a pipeline file, built on first use. */
export function imagePluginSchema(): ReturnType<typeof buildPluginSchema> {
  return (pluginSchema ??= buildPluginSchema());
}

/** Checks `imageSource` options. @throws TfpipeError `INVALID_OPTION` naming the option */
export function checkImageSourceOptions(options: unknown): void {
  checkOptions(imageSourceSchema(), options, IMAGE_OPTIONS_STAGE);
}

/**
 * Checks `imageExampleSpec` options (`keys`, as `imageSource` takes it).
 * @throws TfpipeError `INVALID_OPTION` naming the option
 */
export function checkImageKeyOptions(options: unknown): void {
  checkOptions((keysSchema ??= buildKeysSchema()), options, 'imageExampleSpec');
}

// The documented option type must be the schema's keys, and what the schema lets through must fit it.
/** Compiles only while the documented option type and the schema agree (see `OptionsFit`). */
export type ImageOptionTypesFit = RequireTrue<
  OptionsFit<z.output<ReturnType<typeof buildSourceSchema>>, ImageSourceOptions>
>;
