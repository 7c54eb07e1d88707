// The hostile inputs of issue 21, run against a built `tfpipe` binary as a user's shell would run them: each case
// makes its input in a temporary folder, runs the command under a time limit and an 8 GiB address-space limit,
// and prints one markdown row: the command, its exit, the first line it printed on stderr, the time, the peak
// RSS and the verdict of a check on what it left behind. RELIABILITY.md's "Hostile inputs" table is its output,
// run once against the code before the fixes and once after.
//
//   node reliability/hostile-inputs.mjs [--bin packages/cli/dist/bin.js] [--case NAME[,NAME]]
//
// Inputs are written by this script (TFRecord framing, CRC-32C and protobuf by hand), not by the build under test.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(name);
  return index === -1 ? fallback : argv[index + 1];
};
const BIN = resolve(option('--bin', 'packages/cli/dist/bin.js'));
const ONLY = option('--case', undefined)?.split(',');
const LIMIT_SECONDS = Number(option('--seconds', '60'));

// --- TFRecord and protobuf, by hand -------------------------------------------------------------------------

const CRC_TABLE = new Uint32Array(256).map((_, index) => {
  let crc = index;
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  return crc >>> 0;
});
function maskedCrc(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  crc = (crc ^ 0xffffffff) >>> 0;
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}
function frame(payload) {
  const header = Buffer.alloc(12);
  header.writeBigUInt64LE(BigInt(payload.length));
  header.writeUInt32LE(maskedCrc(header.subarray(0, 8)), 8);
  const footer = Buffer.alloc(4);
  footer.writeUInt32LE(maskedCrc(payload));
  return Buffer.concat([header, payload, footer]);
}
function varint(value) {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes = [];
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return Buffer.from(bytes);
}
const field = (number, bytes) => Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);
/** A Feature: ['int64', [1n, 2n]] | ['float', [0.5]] | ['bytes', ['a']]; packed lists, as TensorFlow writes. */
function feature([kind, values]) {
  if (kind === 'bytes') return field(1, Buffer.concat(values.map((value) => field(1, Buffer.from(value)))));
  if (kind === 'float') {
    const packed = Buffer.alloc(values.length * 4);
    values.forEach((value, index) => packed.writeFloatLE(value, index * 4));
    return field(2, field(1, packed));
  }
  return field(3, field(1, Buffer.concat(values.map(varint))));
}
/** An Example from [name, [kind, values]] pairs. */
function example(features) {
  const entries = features.map(([name, value]) =>
    field(1, Buffer.concat([field(1, Buffer.from(name)), field(2, feature(value))])),
  );
  return field(1, Buffer.concat(entries));
}
const tfrecord = (payloads) => Buffer.concat(payloads.map(frame));

// --- Running a command --------------------------------------------------------------------------------------

/** Runs `script` in bash under the limits; resolves with exit, stdout, stderr, seconds and peak RSS (MB). */
function shell(script, cwd) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(
      '/usr/bin/time',
      [
        '-f',
        'HOSTILE_RSS_KB %M',
        'timeout',
        '-s',
        'KILL',
        String(LIMIT_SECONDS),
        'bash',
        '-c',
        `ulimit -v 8388608; ${script}`,
      ],
      { cwd, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      if (stdout.length < 1 << 20) stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-65536);
    });
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /HOSTILE_RSS_KB (\d+)/.exec(stderr);
      stderr = stderr.replace(/.*HOSTILE_RSS_KB \d+\n?/s, (match) =>
        match.replace(/HOSTILE_RSS_KB \d+\n?/, ''),
      );
      // `time` reports "Command terminated by signal 9" / "Command exited with non-zero status N" first.
      const killed = /Command terminated by signal (\d+)/.exec(stderr);
      stderr = stderr.replace(/Command (terminated by signal|exited with non-zero status) \d+\n?/g, '');
      done({
        exit: killed ? `signal ${killed[1]}` : String(code),
        stdout,
        stderr,
        seconds,
        rssMb: rss ? Number(rss[1]) / 1024 : NaN,
        timedOut: seconds >= LIMIT_SECONDS - 0.5,
      });
    });
  });
}
const quote = (text) => `'${String(text).replaceAll("'", `'\\''`)}'`;
const tfpipe = (...args) => `node ${quote(BIN)} ${args.join(' ')}`;

// --- The cases ----------------------------------------------------------------------------------------------

const csvOf = (header, rows) => `${header.join(',')}\n${rows.map((row) => row.join(',')).join('\n')}\n`;
const listed = (dir) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const firstJson = (stdout) => JSON.parse(stdout.split('\n').find((line) => line.startsWith('{')) ?? 'null');

const CASES = [
  {
    name: 'wide-csv',
    what: 'CSV of 1 label + 784 int columns + 100 float columns (885), 20 rows',
    prepare(dir) {
      const header = [
        'label',
        ...Array.from({ length: 784 }, (_, i) => `p${i}`),
        ...Array.from({ length: 100 }, (_, i) => `f${i}`),
      ];
      const rows = Array.from({ length: 20 }, (_, r) => [
        r % 10,
        ...Array.from({ length: 784 }, (_, i) => (i * 7 + r) % 256),
        ...Array.from({ length: 100 }, (_, i) => (i + r + 0.5).toFixed(1)),
      ]);
      writeFileSync(join(dir, 'wide.csv'), csvOf(header, rows));
      return {
        command: `${tfpipe('convert', 'wide.csv', 'wide.tfrecord', '--quiet')} && ${tfpipe('verify', 'wide.tfrecord')} && ${tfpipe('inspect', 'wide.tfrecord', '--json', '--limit', '1')}`,
        check: ({ stdout }) => {
          const json = firstJson(stdout.slice(stdout.indexOf('{')));
          const features = json?.features?.feature ?? {};
          const p700 = features.p700?.int64List?.value?.[0];
          const f99 = features.f99?.floatList?.value?.[0];
          return p700 === String((700 * 7) % 256) && f99 === 99.5
            ? 'p700 and f99 exact'
            : `p700=${p700} f99=${f99}: WRONG`;
        },
      };
    },
  },
  {
    name: 'wide-header-200k',
    what: 'CSV header of 200,000 columns, 1 row',
    prepare(dir) {
      const header = Array.from({ length: 200_000 }, (_, i) => `c${i}`);
      writeFileSync(join(dir, 'w.csv'), csvOf(header, [header.map((_, i) => i % 10)]));
      return {
        command: tfpipe('convert', 'w.csv', 'w.tfrecord', '--quiet'),
        check: () => (existsSync(join(dir, 'w.tfrecord')) ? 'written' : 'no output'),
      };
    },
  },
  {
    name: 'overwrite-foreign',
    what: '--overwrite --prefix train beside a PDF named x-00001-of-00003.pdf, val shards, another manifest, a directory y.tfrecord',
    prepare(dir) {
      writeFileSync(join(dir, 'in.csv'), csvOf(['a'], [[1], [2], [3]]));
      mkdirSync(join(dir, 'out/y.tfrecord'), { recursive: true });
      for (const name of [
        'x-00001-of-00003.pdf',
        'val-00000-of-00001.tfrecord',
        'other.manifest.json',
        'train-00000-of-00003.tfrecord',
      ])
        writeFileSync(join(dir, 'out', name), 'not tfpipe output of this run');
      return {
        command: tfpipe(
          'convert',
          'in.csv',
          'out',
          '--prefix',
          'train',
          '--shards',
          '2',
          '--overwrite',
          '--quiet',
        ),
        check: () => {
          const left = listed(join(dir, 'out'));
          const lost = [
            'x-00001-of-00003.pdf',
            'val-00000-of-00001.tfrecord',
            'other.manifest.json',
            'y.tfrecord',
          ].filter((name) => !left.includes(name));
          return lost.length === 0
            ? `foreign files kept; out/: ${left.join(' ')}`
            : `DELETED ${lost.join(' ')}`;
        },
      };
    },
  },
  {
    name: 'save-config-input',
    what: '--save-config naming the input CSV',
    prepare(dir) {
      const text = csvOf(['a'], [[1], [2]]);
      writeFileSync(join(dir, 'in.csv'), text);
      return {
        command: tfpipe('convert', 'in.csv', 'out.tfrecord', '--save-config', 'in.csv', '--quiet'),
        check: () =>
          readFileSync(join(dir, 'in.csv'), 'utf8') === text ? 'input intact' : 'INPUT OVERWRITTEN',
      };
    },
  },
  ...[20_000, 2].map((records) => ({
    name: `gzip-trailing-${records}`,
    what: `gzip TFRecord of ${records} records + 16 garbage bytes, verify --repair`,
    prepare(dir) {
      const payloads = Array.from({ length: records }, (_, i) => example([['id', ['int64', [BigInt(i)]]]]));
      writeFileSync(
        join(dir, 'd.tfrecord.gz'),
        Buffer.concat([gzipSync(tfrecord(payloads)), Buffer.alloc(16, 0xab)]),
      );
      return {
        command: `${tfpipe('verify', 'd.tfrecord.gz', '--repair', 'r.tfrecord')}; ${tfpipe('count', 'r.tfrecord')}`,
        check: ({ stdout }) => {
          const counted = /^(\d+)\s+r\.tfrecord/m.exec(stdout)?.[1];
          return counted === String(records)
            ? `all ${records} records repaired`
            : `repaired ${counted ?? 'none'} of ${records}`;
        },
      };
    },
  })),
  {
    name: 'tfds-existing',
    what: 'schema --format tfds where dataset_info.json already exists',
    prepare(dir) {
      writeFileSync(
        join(dir, 'train-00000-of-00001.tfrecord'),
        tfrecord([example([['a', ['int64', [1n]]]])]),
      );
      writeFileSync(join(dir, 'dataset_info.json'), 'KEEP');
      return {
        command: tfpipe('schema', 'train-00000-of-00001.tfrecord', '--format', 'tfds'),
        check: () =>
          readFileSync(join(dir, 'dataset_info.json'), 'utf8') === 'KEEP'
            ? 'existing file kept'
            : 'EXISTING FILE REPLACED',
      };
    },
  },
  {
    name: 'non-utf8-names',
    what: 'a folder of 6 one-record TFRecord files, 3 with names that are not UTF-8',
    prepare(dir) {
      mkdirSync(join(dir, 'in'));
      for (let i = 0; i < 6; i++) {
        const name =
          i % 2 === 0
            ? Buffer.from(`r${i}.tfrecord`)
            : Buffer.concat([Buffer.from(`r${i}`), Buffer.from([0xff, 0xfe]), Buffer.from('.tfrecord')]);
        writeFileSync(
          Buffer.concat([Buffer.from(join(dir, 'in') + '/'), name]),
          tfrecord([example([['i', ['int64', [BigInt(i)]]]])]),
        );
      }
      return {
        command: `${tfpipe('convert', 'in', 'out.tfrecord', '--quiet')} && ${tfpipe('count', 'out.tfrecord')}`,
        check: ({ stdout, exit }) => {
          const counted = /^(\d+)\s/m.exec(stdout)?.[1];
          if (exit !== '0') return 'refused loudly';
          return counted === '6' ? 'all 6 records' : `${counted} of 6 records, exit 0: SILENT LOSS`;
        },
      };
    },
  },
  ...['inspect', 'schema', 'convert'].map((command) => ({
    name: `features-130k-${command}`,
    what: `one record of 130,000 int64 features, ${command}`,
    prepare(dir) {
      writeFileSync(
        join(dir, 'f.tfrecord'),
        tfrecord([example(Array.from({ length: 130_000 }, (_, i) => [`k${i}`, ['int64', [BigInt(i)]]]))]),
      );
      const args = {
        inspect: ['inspect', 'f.tfrecord', '--limit', '1'],
        schema: ['schema', 'f.tfrecord', '--format', 'tf'],
        convert: ['convert', 'f.tfrecord', 'out', '--shards', '1', '--quiet'],
      }[command];
      return {
        command: `${tfpipe(...args)} > /dev/null`,
        check: ({ exit }) => {
          if (command !== 'convert') return exit === '0' ? 'ok' : 'failed';
          const final = listed(join(dir, 'out')).filter((name) => !name.startsWith('.'));
          return exit === '0'
            ? `ok: ${final.join(' ')}`
            : final.length === 0
              ? 'failed, nothing final-named'
              : `failed but left ${final.join(' ')}`;
        },
      };
    },
  })),
  {
    name: 'tif-folder',
    what: 'an image class folder of .tif files that are not images tfpipe can read',
    prepare(dir) {
      mkdirSync(join(dir, 'imgs/cat'), { recursive: true });
      for (let i = 0; i < 3; i++) writeFileSync(join(dir, `imgs/cat/${i}.tif`), Buffer.from('II*\0garbage'));
      return {
        command: tfpipe('convert', 'imgs', 'out.tfrecord', '--quiet'),
        check: ({ exit }) => (exit === '0' ? 'exit 0' : 'refused'),
      };
    },
  },
  {
    name: 'gz-suffix',
    what: 'convert in.csv out.tfrecord.gz without --compression',
    prepare(dir) {
      writeFileSync(join(dir, 'in.csv'), csvOf(['a'], [[1], [2]]));
      return {
        command: tfpipe('convert', 'in.csv', 'out.tfrecord.gz', '--quiet'),
        check: () => {
          const bytes = existsSync(join(dir, 'out.tfrecord.gz'))
            ? readFileSync(join(dir, 'out.tfrecord.gz'))
            : Buffer.alloc(0);
          return bytes[0] === 0x1f && bytes[1] === 0x8b ? 'gzip' : bytes.length ? 'NOT GZIP' : 'no file';
        },
      };
    },
  },
  {
    name: 'resize-on-csv',
    what: 'convert in.csv --resize 10x10 (a flag of another input kind)',
    prepare(dir) {
      writeFileSync(join(dir, 'in.csv'), csvOf(['a'], [[1]]));
      return {
        command: tfpipe('convert', 'in.csv', 'out.tfrecord', '--resize', '10x10', '--quiet'),
        check: ({ exit }) => (exit === '0' ? 'accepted silently' : 'refused'),
      };
    },
  },
  {
    name: 'csv-inference',
    what: 'CSV columns 02134 (a ZIP code), 1e309, -1e-400 with kinds inferred',
    prepare(dir) {
      writeFileSync(join(dir, 'in.csv'), 'zip,big,tiny\n02134,1e309,-1e-400\n00501,1,1\n');
      return {
        command: `${tfpipe('convert', 'in.csv', 'out.tfrecord', '--quiet')} && ${tfpipe('inspect', 'out.tfrecord', '--json', '--limit', '1')}`,
        check: ({ stdout, exit }) => {
          if (exit !== '0') return 'refused';
          const features = firstJson(stdout)?.features?.feature ?? {};
          const show = (value) =>
            JSON.stringify(
              value?.bytesList?.value?.map((v) => Buffer.from(v, 'base64').toString()) ??
                value?.int64List?.value ??
                value?.floatList?.value,
            );
          return `zip ${show(features.zip)}, big ${show(features.big)}, tiny ${show(features.tiny)}`;
        },
      };
    },
  },
  ...['count', 'verify', 'inspect', 'schema'].map((command) => ({
    name: `fifo-${command}`,
    what: `${command} on a FIFO named data.tfrecord (no writer)`,
    prepare(dir) {
      return {
        command: `mkfifo data.tfrecord && ${tfpipe(command, 'data.tfrecord')}`,
        check: ({ timedOut }) => (timedOut ? 'HANG (killed)' : 'returned'),
      };
    },
  })),
  ...['inspect', 'schema', 'convert'].map((command) => ({
    name: `record-25m-empty-${command}`,
    what: `one 48 MB record: a bytes feature of 25M empty values; ${command}`,
    prepare(dir) {
      const values = Buffer.alloc(25_000_000 * 2);
      for (let i = 0; i < values.length; i += 2) values[i] = 0x0a;
      const bytesList = Buffer.concat([varint((1 << 3) | 2), varint(values.length), values]);
      const entry = field(1, Buffer.concat([field(1, Buffer.from('empty')), field(2, field(1, bytesList))]));
      writeFileSync(join(dir, 'e.tfrecord'), frame(field(1, entry)));
      const args = {
        inspect: ['inspect', 'e.tfrecord', '--limit', '1'],
        schema: ['schema', 'e.tfrecord'],
        convert: ['convert', 'e.tfrecord', 'out', '--quiet'],
      }[command];
      return {
        command: `${tfpipe(...args)} > /dev/null`,
        check: ({ exit }) => (exit === '0' ? 'ok' : exit.startsWith('signal') ? 'killed' : 'error'),
      };
    },
  })),
  {
    name: 'shards-100000',
    what: 'convert a 10-row CSV --shards 100000',
    prepare(dir) {
      writeFileSync(
        join(dir, 'in.csv'),
        csvOf(
          ['a'],
          Array.from({ length: 10 }, (_, i) => [i]),
        ),
      );
      return {
        command: tfpipe('convert', 'in.csv', 'out', '--shards', '100000', '--quiet'),
        check: () => {
          const names = listed(join(dir, 'out'));
          return `${names.filter((name) => name.includes('tfpipe-tmp')).length} temporaries, ${names.filter((name) => !name.startsWith('.')).length} final files left`;
        },
      };
    },
  },
  {
    name: 'jsonl-100mb-line',
    what: 'a .jsonl file of one 100 MB line',
    prepare(dir) {
      writeFileSync(
        join(dir, 'big.jsonl'),
        `{"features":{"feature":{"a":{"bytesList":{"value":["${'A'.repeat(100_000_000)}"]}}}}}\n`,
      );
      return {
        command: tfpipe('convert', 'big.jsonl', 'out.tfrecord', '--quiet'),
        check: ({ exit }) => (exit === '0' ? 'converted' : 'refused'),
      };
    },
  },
  {
    name: 'inspect-epipe',
    what: 'inspect --json FILE | head -1',
    prepare(dir) {
      writeFileSync(
        join(dir, 'f.tfrecord'),
        tfrecord(Array.from({ length: 5000 }, (_, i) => example([['i', ['int64', [BigInt(i)]]]]))),
      );
      return {
        command: `set -o pipefail; ${tfpipe('inspect', 'f.tfrecord', '--json')} | head -1 > /dev/null`,
        check: ({ stderr }) => (/EPIPE|at .*\(|Error:/.test(stderr) ? 'stack trace on stderr' : 'quiet'),
      };
    },
  },
  ...[
    ['glob-backtrack', "'in/*a*a*a*a*a*a*a*a*a*a*a*a*b'"],
    ['glob-braces-24', `'in/${'{a,b}'.repeat(24)}'`],
    ['glob-bad-range', "'in/[z-a].tfrecord'"],
  ].map(([name, pattern]) => ({
    name,
    what: `count ${pattern}`,
    prepare(dir) {
      mkdirSync(join(dir, 'in'));
      writeFileSync(
        join(dir, 'in', `${'a'.repeat(40)}.tfrecord`),
        tfrecord([example([['i', ['int64', [1n]]]])]),
      );
      return {
        command: tfpipe('count', pattern),
        check: ({ timedOut, stderr }) =>
          timedOut
            ? 'HANG (killed)'
            : /TFPIPE|\[[A-Z_]+\]/.test(stderr) || stderr === ''
              ? 'returned'
              : 'returned, uncoded error',
      };
    },
  })),
  {
    name: 'sigterm-temporaries',
    what: 'SIGTERM as soon as the first temporary shard exists, converting a 2M-row CSV into 4 shards',
    prepare(dir) {
      const rows = [];
      for (let i = 0; i < 2_000_000; i++) rows.push(`${i},${i % 7},x${i % 13}`);
      writeFileSync(join(dir, 'in.csv'), `a,b,c\n${rows.join('\n')}\n`);
      return {
        command: `${tfpipe('convert', 'in.csv', 'out', '--shards', '4', '--quiet')} & pid=$!; for i in $(seq 300); do ls -a out 2>/dev/null | grep -q tfpipe-tmp && break; sleep 0.1; done; kill -TERM $pid; wait $pid; echo exit=$? >&2`,
        check: () => {
          const names = listed(join(dir, 'out'));
          return `${names.filter((name) => name.includes('tfpipe-tmp')).length} temporaries, ${names.filter((name) => !name.startsWith('.')).length} final files left`;
        },
      };
    },
  },
  {
    name: 'count-1m-tiny',
    what: 'count 1,000,000 records of 1 byte',
    prepare(dir) {
      const one = frame(Buffer.from([0]));
      writeFileSync(join(dir, 't.tfrecord'), Buffer.concat(Array.from({ length: 1_000_000 }, () => one)));
      return {
        command: tfpipe('count', 't.tfrecord'),
        check: ({ stdout, seconds }) => {
          const counted = /^(\d+)/m.exec(stdout)?.[1];
          if (counted === undefined) return 'not finished';
          return `${counted} counted, ${Math.round(1e6 / seconds / 1000)}k records/s`;
        },
      };
    },
  },
  {
    name: 'negative-zero',
    what: 'inspect --json of a float feature holding -0',
    prepare(dir) {
      writeFileSync(join(dir, 'z.tfrecord'), tfrecord([example([['x', ['float', [-0]]]])]));
      return {
        command: tfpipe('inspect', 'z.tfrecord', '--json'),
        check: ({ stdout }) => (/"value":\[-0\]/.test(stdout) ? '-0 kept' : '-0 printed as 0'),
      };
    },
  },
  {
    name: 'verify-not-example',
    what: 'verify a file whose record 3 has valid CRCs but is not an Example',
    prepare(dir) {
      const payloads = Array.from({ length: 5 }, (_, i) => example([['i', ['int64', [BigInt(i)]]]]));
      payloads[3] = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]);
      writeFileSync(join(dir, 'v.tfrecord'), tfrecord(payloads));
      return {
        command: tfpipe('verify', 'v.tfrecord'),
        check: ({ exit }) => (exit === '0' ? 'passes (framing only)' : 'fails'),
      };
    },
  },
];

// --- The table ----------------------------------------------------------------------------------------------

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ').slice(0, 160);
console.log(`Hostile inputs against ${BIN} (limits: ${LIMIT_SECONDS} s, 8 GiB address space)\n`);
console.log('| case | input | exit | stderr (first line) | time | peak RSS | check |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const hostile of CASES) {
  if (ONLY !== undefined && !ONLY.includes(hostile.name)) continue;
  const dir = mkdtempSync(join(tmpdir(), `tfpipe-hostile-${hostile.name}-`));
  try {
    const { command, check } = hostile.prepare(dir);
    const result = await shell(command, dir);
    const firstLine = result.stderr.split('\n').find((line) => line.trim() !== '') ?? '';
    const exit = result.timedOut ? `killed at ${LIMIT_SECONDS} s` : result.exit;
    console.log(
      `| ${hostile.name} | ${cell(hostile.what)} | ${exit} | ${cell(firstLine)} | ${result.seconds.toFixed(1)} s | ${Math.round(result.rssMb)} MB | ${cell(check(result))} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
