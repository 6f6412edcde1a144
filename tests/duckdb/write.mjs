// Writes Parquet files with DuckDB (an outside oracle) and, beside each, the
// distinct values of every column chunk that has a Bloom filter.
//
//   node tests/duckdb/write.mjs OUTDIR [small|tiny]
//
// DUCKDB_DIR names the folder where `npm install @duckdb/node-api` ran
// (tests/duckdb/setup.sh). For each file F.parquet it writes F.values:
//   chunk ROWGROUP PATH TYPE OFFSET LENGTH     one per chunk with a filter
//   v HEX TEXT                                 its distinct values
// HEX is the value's PLAIN encoding (what Parquet hashes), TEXT how the
// `sbf --type` option spells it (strings: the raw bytes, as a line).
// DuckDB writes a filter only for dictionary-encoded chunks, so the
// distinct counts stay below DICTIONARY_SIZE_LIMIT.
import { createRequire } from 'module';
import { resolve } from 'path';
import { writeFileSync } from 'fs';

const require = createRequire(resolve(process.env.DUCKDB_DIR || '.') + '/');
const { DuckDBInstance } = require('@duckdb/node-api');

const out = process.argv[2];
const mode = process.argv[3] || 'full';
if (!out) {
  console.error('usage: write.mjs OUTDIR [small|tiny]');
  process.exit(2);
}

// Negative numbers, -0.0 and 0.0, NULLs, the empty string, non-ASCII.
const COLUMNS = `
  CASE WHEN i % 97 = 0 THEN NULL
       ELSE ((i * 7919) % 611 - 300) * 1000003 END::BIGINT AS b,
  ((i * 31) % 257 - 128)::INTEGER AS n,
  CASE i % 50 WHEN 0 THEN '-0.0'::DOUBLE WHEN 1 THEN 0.0::DOUBLE
       ELSE ((i % 211) - 105) / 8.0 END::DOUBLE AS d,
  CASE i % 40 WHEN 0 THEN '' WHEN 1 THEN 'é' WHEN 2 THEN '日本語' WHEN 3 THEN '🦆'
       ELSE 'key-' || (i % 173)::VARCHAR END AS s`;

// small: committed as tests/vectors/duckdb_small.*; tiny: fuzz seeds
const FILES = mode === 'small' ? [{ name: 'duckdb_small', rows: 5000, rg: 2048 }]
  : mode === 'tiny' ? [{ name: 'duckdb_tiny', rows: 4100, rg: 2048, mod: 7 }]
  : [
      { name: 'types', rows: 20000, rg: 8192 },
      { name: 'many', rows: 40960, rg: 2048 },
    ];

function plain(type, v) {
  const b = Buffer.alloc(8);
  switch (type) {
    case 'INT64': b.writeBigInt64LE(BigInt(v)); return [b, String(v)];
    case 'INT32': b.writeInt32LE(Number(v)); return [b.subarray(0, 4), String(v)];
    case 'DOUBLE':
      b.writeDoubleLE(v);
      return [b, Object.is(v, -0) ? '-0' : String(v)];
    case 'BYTE_ARRAY': { const s = Buffer.from(v, 'utf8'); return [s, v]; }
    default: throw new Error('type ' + type);
  }
}

const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
await c.run('SET threads = 1');
for (const f of FILES) {
  const path = `${out}/${f.name}.parquet`;
  const from = f.mod ? `(SELECT i % ${f.mod} AS i FROM range(${f.rows}) r(i))` : `range(${f.rows})`;
  await c.run(`COPY (SELECT ${COLUMNS} FROM ${from} t(i) ORDER BY i)
    TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE ${f.rg},
    DICTIONARY_SIZE_LIMIT 100000, WRITE_BLOOM_FILTER true)`);
  const meta = (await c.runAndReadAll(`SELECT row_group_id, row_group_num_rows,
      path_in_schema, type, bloom_filter_offset, bloom_filter_length
      FROM parquet_metadata('${path}') ORDER BY row_group_id, column_id`)).getRowObjects();
  const rows = (await c.runAndReadAll(
    `SELECT b, n, d, s FROM read_parquet('${path}', file_row_number = true)
     ORDER BY file_row_number`)).getRowObjects();
  const starts = [];  // first row of each row group
  for (const m of meta) {
    const rg = Number(m.row_group_id);
    if (starts[rg] === undefined)
      starts[rg] = rg === 0 ? 0 : starts[rg - 1] + Number(
        meta.find((x) => Number(x.row_group_id) === rg - 1).row_group_num_rows);
  }
  const lines = [];
  let nfilters = 0;
  for (const m of meta) {
    const rg = Number(m.row_group_id), start = starts[rg];
    if (m.bloom_filter_offset === null) continue;
    nfilters++;
    const len = m.bloom_filter_length === null ? -1 : Number(m.bloom_filter_length);
    lines.push(`chunk ${rg} ${m.path_in_schema} ${m.type} ${m.bloom_filter_offset} ${len}`);
    const seen = new Set();
    const end = start + Number(m.row_group_num_rows);
    for (let r = start; r < end; r++) {
      const v = rows[r][m.path_in_schema];
      if (v === null) continue;
      const [bytes, text] = plain(m.type, v);
      const hex = bytes.toString('hex');
      if (seen.has(hex)) continue;
      seen.add(hex);
      lines.push(`v ${hex || '-'} ${text}`);
    }
  }
  writeFileSync(`${out}/${f.name}.values`, lines.join('\n') + '\n');
  console.log(`duckdb: ${path}: ${meta.length} chunks, ${nfilters} with a filter`);
}
