import { element } from './dom.js';
import type { DatasetProfile, FeatureProfile } from './stats/dataset-profile.js';
import type { HistogramView } from './stats/histogram.js';
import type { TopValue } from './stats/top-values.js';
import { counted } from './words.js';

const count = new Intl.NumberFormat('en');
/** The mean as shown: 6 significant digits. */
export const meanText = (mean: number): string =>
  Number.isFinite(mean) ? String(Number(mean.toPrecision(6))) : '–';
/** A histogram edge as shown: exact for the power-of-two bins, short. */
const edgeText = (edge: number): string => String(Number(edge.toPrecision(6)));

/** Renders the schema and statistics panel: the reader specs with copy buttons, then a card per feature. */
export function renderStats(container: HTMLElement, profile: DatasetProfile): void {
  const { records } = profile;
  const summary = element(
    'p',
    'stats-summary',
    `${counted(records, 'record')} (${profile.payloadType}), ${counted(profile.features.length, 'feature')}`,
    profile.featureLists.length > 0 ? `, ${profile.featureLists.length} feature lists` : '',
    profile.undecodable > 0
      ? `; ${count.format(profile.undecodable)} payloads that are not Examples left out`
      : '',
    profile.unprofiled > 0
      ? `; values of ${profile.unprofiled} features past the first 1000 not profiled`
      : '',
  );
  const lists = profile.featureLists.map((list) =>
    element(
      'li',
      '',
      element('code', '', list.name),
      ` ${list.kind}, in ${count.format(list.present)} of ${counted(records, 'record')}, ${list.minSteps}–${list.maxSteps} steps of ${list.minLength}–${list.maxLength} values`,
    ),
  );
  container.replaceChildren(
    element('div', 'stats-head', element('h2', '', 'Schema and statistics'), summary),
    specs(profile),
    element('div', 'feature-cards', ...profile.features.map((feature) => card(feature, records))),
    ...(lists.length > 0
      ? [element('h3', '', 'Feature lists'), element('ul', 'feature-lists', ...lists)]
      : []),
  );
}

function specs(profile: DatasetProfile): HTMLElement {
  const forms = [
    ['tensorflow', 'TensorFlow', profile.specs.tensorflow],
    ['dali', 'DALI', profile.specs.dali],
    ['typescript', '@tfpipe/dataset', profile.specs.typescript],
  ] as const;
  const code = element('pre', 'spec-code');
  const buttons = forms.map(([id, label, text]) => {
    const button = element('button', 'tab', label);
    button.type = 'button';
    button.dataset.spec = id;
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-selected', String(other === button));
      code.textContent = text;
      code.dataset.spec = id;
    });
    return button;
  });
  const copy = element('button', 'button copy-spec', 'Copy');
  copy.type = 'button';
  copy.addEventListener('click', () => {
    void navigator.clipboard.writeText(code.textContent ?? '').then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Copy failed: select the text'),
    );
    setTimeout(() => (copy.textContent = 'Copy'), 1500);
  });
  buttons[0]!.click();
  return element(
    'section',
    'reader-spec',
    element(
      'div',
      'spec-bar',
      element('strong', '', 'Reader spec'),
      ...buttons,
      element('span', 'spacer'),
      copy,
    ),
    code,
  );
}

function card(feature: FeatureProfile, records: number): HTMLElement {
  const values = feature.values;
  const percent = records === 0 ? 0 : (feature.present / records) * 100;
  const lengths =
    feature.minLength === feature.maxLength
      ? `${feature.minLength}`
      : `${feature.minLength}–${feature.maxLength}`;
  const parts: HTMLElement[] = [
    element(
      'header',
      'card-head',
      element('code', 'feature-name', feature.name),
      element('span', `kind kind-${feature.kind}`, feature.kind),
    ),
    element(
      'p',
      'card-line presence',
      `present in ${count.format(feature.present)} of ${count.format(records)} (${Number(percent.toFixed(1))}%) · ${lengths} value${lengths === '1' ? '' : 's'} each`,
    ),
  ];
  if (values !== undefined) {
    if (values.listLengths.counts.length > 1)
      parts.push(histogram('list lengths', values.listLengths, 'lengths'));
    const numeric = values.numeric;
    if (numeric !== undefined) {
      parts.push(
        element(
          'p',
          'card-line numeric',
          `min ${numeric.min} · max ${numeric.max} · mean ${meanText(numeric.mean)}`,
          numeric.nonFinite > 0 ? ` · ${count.format(numeric.nonFinite)} NaN or ±Infinity` : '',
        ),
        histogram('values', numeric.histogram, 'values'),
      );
    }
    if (values.images !== undefined) {
      const images = values.images;
      parts.push(
        element(
          'p',
          'card-line images',
          images.formats.map((format) => `${format.type} ${count.format(format.count)}`).join(' · '),
          images.unknownSize > 0 ? ` · ${count.format(images.unknownSize)} of unknown size` : '',
        ),
        topTable('sizes', images.sizes),
      );
    }
    if (values.top.length > 0) parts.push(topTable('top values', values.top));
    if (values.longValues > 0) {
      parts.push(
        element(
          'p',
          'card-line muted',
          `${count.format(values.longValues)} values over 256 bytes not counted`,
        ),
      );
    }
  }
  const node = element('article', 'feature-card', ...parts);
  node.dataset.feature = feature.name;
  return node;
}

/** Bars of a histogram; each bar's title holds its exact range and count. */
function histogram(title: string, view: HistogramView, kind: string): HTMLElement {
  let highest = 1;
  for (const value of view.counts) highest = Math.max(highest, value);
  const bars = view.counts.map((value, index) => {
    const bar = element('span', 'bar');
    bar.style.height = `${Math.max(value === 0 ? 0 : 4, (value / highest) * 100)}%`;
    bar.title = `[${edgeText(view.edges[index]!)}, ${edgeText(view.edges[index + 1]!)}): ${value}`;
    return bar;
  });
  const axis = element(
    'div',
    'axis muted',
    element('span', '', edgeText(view.edges[0] ?? 0)),
    element('span', '', edgeText(view.edges.at(-1) ?? 0)),
  );
  const node = element(
    'figure',
    `histogram histogram-${kind}`,
    element('figcaption', 'muted', title),
    element('div', 'bars', ...bars),
    axis,
  );
  return node;
}

function topTable(title: string, top: readonly TopValue[]): HTMLElement {
  const rows = top.map((entry) =>
    element(
      'tr',
      '',
      element('td', 'top-value', entry.value),
      element(
        'td',
        'top-count',
        entry.error === 0
          ? count.format(entry.count)
          : `${count.format(entry.count - entry.error)}–${count.format(entry.count)}`,
      ),
    ),
  );
  return element(
    'table',
    `top-table top-${title.replace(' ', '-')}`,
    element('caption', 'muted', title),
    element('tbody', '', ...rows),
  );
}
