import { bytes, float, int64 } from '@tfpipe/core';
import { describe, expect, it } from 'vitest';
import { detectionBoxes } from './detection-boxes.js';
import { floatText, hexText, bytesText } from './feature-text.js';

describe('detectionBoxes', () => {
  it('reads the TF Object Detection keys with class text and label', () => {
    const { boxes, warnings } = detectionBoxes({
      'image/object/bbox/xmin': float(0.1, 0.5),
      'image/object/bbox/ymin': float(0.2, 0.5),
      'image/object/bbox/xmax': float(0.3, 0.9),
      'image/object/bbox/ymax': float(0.4, 0.6),
      'image/object/class/text': bytes('cat', 'dog'),
      'image/object/class/label': int64(1, 2),
    });
    expect(warnings).toEqual([]);
    expect(boxes.map((box) => [box.text, box.label])).toEqual([
      ['cat', 1n],
      ['dog', 2n],
    ]);
    expect(boxes[0]!.xmin).toBeCloseTo(0.1);
  });

  it('reads TFDS rows of [ymin, xmin, ymax, xmax] and warns about boxes out of range or upside down', () => {
    const { boxes, warnings } = detectionBoxes({
      'objects/bbox': float(0.1, 0.2, 0.3, 0.4, 0.9, 0.5, 0.2, 1.5),
      'objects/label': int64(3, 4),
    });
    expect(boxes.map((box) => [box.ymin, box.xmin, box.label].map(Number))).toEqual([
      [0.1, 0.2, 3],
      [0.9, 0.5, 4],
    ]);
    expect(warnings).toEqual(['box 1 lies outside [0, 1]', 'box 1 has min > max']);
  });

  it('warns when the bbox lists differ in length', () => {
    const { warnings } = detectionBoxes({
      'image/object/bbox/xmin': float(0.1, 0.2),
      'image/object/bbox/ymin': float(0.1),
      'image/object/bbox/xmax': float(0.3, 0.4),
      'image/object/bbox/ymax': float(0.3, 0.4),
    });
    expect(warnings[0]).toBe('the image/object/bbox/* lists have different lengths');
  });
});

describe('feature text', () => {
  it('prints floats as protobuf does, bytes as text or elided hex', () => {
    expect([0.1, -0, NaN, -Infinity, 1 / 3].map(floatText)).toEqual([
      '0.1',
      '-0',
      'NaN',
      '-Infinity',
      '0.33333334',
    ]);
    expect(bytesText(new TextEncoder().encode('tab\there'))).toBe('"tab\\there"');
    expect(bytesText(Uint8Array.of(1, 2))).toBe('0x0102');
    expect(hexText(new Uint8Array(100), 2)).toBe('0x0000 … (100 bytes)');
  });
});
