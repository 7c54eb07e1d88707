// Test helpers that write Pascal VOC XML and COCO JSON annotations.

/** One VOC object. */
export interface VocObject {
  name: string;
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  difficult?: number;
  truncated?: number;
  pose?: string;
}

/** A Pascal VOC annotation document, laid out as LabelImg writes it. */
export function vocXml(
  filename: string,
  width: number,
  height: number,
  objects: readonly VocObject[],
  depth = 3,
): string {
  const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const objectXml = objects
    .map(
      (object) => `  <object>
    <name>${escape(object.name)}</name>
    <pose>${object.pose ?? 'Unspecified'}</pose>
    <truncated>${object.truncated ?? 0}</truncated>
    <difficult>${object.difficult ?? 0}</difficult>
    <bndbox>
      <xmin>${object.xmin}</xmin>
      <ymin>${object.ymin}</ymin>
      <xmax>${object.xmax}</xmax>
      <ymax>${object.ymax}</ymax>
    </bndbox>
  </object>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<!-- written by a test -->
<annotation>
  <folder>images</folder>
  <filename>${escape(filename)}</filename>
  <size>
    <width>${width}</width>
    <height>${height}</height>
    <depth>${depth}</depth>
  </size>
  <segmented>0</segmented>
${objectXml}
</annotation>
`;
}
