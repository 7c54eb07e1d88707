import { element } from './dom.js';
import { BOXED_IMAGE_KEYS } from './detection-boxes.js';
import { imageView } from './image-view.js';
import type { FeatureView, RecordDetail } from './worker-protocol.js';

/** Values shown before a list is folded. @default 8 */
const FOLD_AFTER = 8;

/** Renders every feature of a record (and its images with their boxes) into `container`. */
export async function renderRecord(container: HTMLElement, record: RecordDetail): Promise<void> {
  const heading = element(
    'h2',
    'record-heading',
    `Record ${record.recordIndex}`,
    element(
      'span',
      'muted',
      ` · byte ${record.byteOffset} · ${record.length} bytes · ${record.payloadType ?? 'not an Example'}`,
    ),
  );
  const parts: HTMLElement[] = [heading];
  if (record.payloadType === undefined) {
    parts.push(element('p', 'warning', `This payload is not an Example: ${record.decodeError ?? ''}`));
  } else {
    parts.push(...(await images(record)));
    parts.push(featureTable(record.features, record.payloadType === 'Example' ? 'Features' : 'Context'));
    for (const list of record.featureLists) {
      parts.push(featureTable(list.steps, `Feature list ${list.key} (steps)`));
    }
  }
  container.replaceChildren(...parts);
}

async function images(record: RecordDetail): Promise<HTMLElement[]> {
  if (record.images.length === 0) return [];
  const boxed = record.images.find((image) => BOXED_IMAGE_KEYS.includes(image.key)) ?? record.images[0];
  const views = await Promise.all(
    record.images.map(async (image) => {
      const view = await imageView(image, image === boxed ? record.boxes.boxes : []);
      const { pixels } = image;
      const type =
        pixels === undefined ? image.type : `raw pixels ${pixels.width}×${pixels.height}×${pixels.channels}`;
      const caption = `${image.key}${image.index > 0 ? `[${image.index}]` : ''} · ${type}`;
      return element('figure', 'image-figure', view, element('figcaption', 'muted', caption));
    }),
  );
  const notes = record.boxes.warnings.map((warning) => element('p', 'warning box-warning', warning));
  return [element('div', 'images', ...views), ...notes];
}

function featureTable(features: readonly FeatureView[], title: string): HTMLElement {
  const rows = features.map((feature) =>
    element(
      'tr',
      '',
      element('th', 'feature-key', feature.key),
      element('td', `kind kind-${feature.kind}`, feature.kind),
      element('td', 'count', String(feature.count)),
      element('td', 'values', values(feature)),
    ),
  );
  const head = element(
    'tr',
    '',
    ...['feature', 'kind', 'n', 'values'].map((text) => element('th', '', text)),
  );
  return element(
    'table',
    'feature-table',
    element('caption', '', title),
    element('thead', '', head),
    element('tbody', '', ...rows),
  );
}

/** A feature's values: all of them when few, else the first ones with the rest folded in a `<details>`. */
function values(feature: FeatureView): HTMLElement {
  const separator = feature.kind === 'bytes' ? '\n' : ', ';
  if (feature.count <= FOLD_AFTER) {
    return element('span', 'value-list', feature.count === 0 ? '[]' : feature.values.join(separator));
  }
  const first = feature.values
    .slice(0, FOLD_AFTER)
    .map((value) => (value.length > 40 ? `${value.slice(0, 39)}…` : value));
  const summary = element('summary', '', `[${first.join(', ')}, …] (${feature.count} values)`);
  const rest =
    feature.count > feature.values.length
      ? `\n… ${feature.count - feature.values.length} more not shown`
      : '';
  return element('details', 'value-list', summary, element('pre', '', feature.values.join(separator) + rest));
}
