import type { TfpipeError } from '@tfpipe/core';
import { checkOptions } from '@tfpipe/core/plugin';
import type { OptionsFit, RequireTrue } from '@tfpipe/core/plugin';
import {
  optionFlag,
  optionFunction,
  optionName,
  optionNames,
  optionOneOf,
  optionsObject,
  optionWholeNumber,
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

const name = optionName;
const names = optionNames;
const flag = optionFlag;
const wholeNumber = optionWholeNumber;
const oneOf = optionOneOf;

/** Each role optional: a feature name, or false to leave the feature out. */
function keysShape() {
  const roles = Object.keys(DEFAULT_IMAGE_KEYS) as ImageKeyRole[];
  const name = z.union([z.string().min(1), z.literal(false)], {
    error: 'expected a non-empty feature name or false',
  });
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
    folder: name(),
    list: name(),
    coco: name(),
    voc: name(),
    images: name(),
    classNames: names('class names'),
    labelBase: wholeNumber(0),
    extensions: names('extensions'),
    resize: z.strictObject(
      {
        width: wholeNumber(1, MAX_SIDE),
        height: wholeNumber(1, MAX_SIDE),
        fit: oneOf(['cover', 'contain', 'fill', 'inside']).optional(),
      },
      { error: 'expected { width, height, fit }' },
    ),
    channels: oneOf(['rgb', 'grayscale']),
    format: oneOf(['jpeg', 'png', 'webp']),
    quality: wholeNumber(1, 100),
    raw: flag(),
    autoOrient: flag(),
    maxPixels: wholeNumber(1),
    maxFileBytes: wholeNumber(1, MAX_READABLE_BYTES),
    allowEmpty: flag(),
    exclude: names('paths'),
    verify: oneOf(['structure', 'decode']),
    invalidBoxes: oneOf(['error', 'drop']),
    ignoreDifficult: flag(),
    concurrency: wholeNumber(1),
    keys: keysShape(),
  };
}

/** Options only code can give (callbacks, the policy a pipeline file sets for the whole run, a plan's runs). */
function codeShape() {
  return {
    onError: oneOf(['fail', 'skip']),
    onSkip: optionFunction<(error: TfpipeError) => void>(),
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

/** The first item of `items` that is there twice. */
function twice(items: readonly unknown[]): unknown {
  return items.find((item, index) => items.indexOf(item) !== index);
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
  const classNames = value.classNames;
  if (Array.isArray(classNames) && twice(classNames) !== undefined) {
    issues.push({
      path: ['classNames'],
      message: `expected each name once, ${JSON.stringify(twice(classNames))} is there twice`,
    });
  }
  const keys = value.keys as Record<string, unknown> | undefined;
  if (keys !== undefined) {
    const given = Object.entries(keys).filter((entry) => entry[1] !== undefined);
    const merged: Record<string, unknown> = { ...DEFAULT_IMAGE_KEYS, ...Object.fromEntries(given) };
    const shared = twice(Object.values(merged).filter((feature) => typeof feature === 'string'));
    if (shared !== undefined) {
      issues.push({
        path: ['keys'],
        message: `expected each feature name once, two roles name ${JSON.stringify(shared)}`,
      });
    }
  }
  return issues;
}

let sourceSchema: ReturnType<typeof buildSourceSchema> | undefined;
let pluginSchema: ReturnType<typeof buildPluginSchema> | undefined;

function buildSourceSchema() {
  return optionsObject({ ...sharedShape(), ...codeShape() }, rulesBetweenKeys);
}
function buildPluginSchema() {
  return optionsObject(sharedShape(), rulesBetweenKeys);
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

// The documented option type must be the schema's keys, and what the schema lets through must fit it.
/** Compiles only while the documented option type and the schema agree (see `OptionsFit`). */
export type ImageOptionTypesFit = RequireTrue<
  OptionsFit<z.output<ReturnType<typeof buildSourceSchema>>, ImageSourceOptions>
>;
