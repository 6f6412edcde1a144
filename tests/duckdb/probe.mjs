// Asks DuckDB's parquet_bloom_probe about values, one per line of KEYS:
//   node tests/duckdb/probe.mjs FILE COLUMN TYPE KEYS
// TYPE is int32, int64, double or string (the `sbf --type` names). Prints
// one line per value, in order, as `sbf parquet query` does: the row groups
// whose filter does not exclude it, joined by ',' in brackets ('[]' when all do).
import { createRequire } from 'module';
import { resolve } from 'path';
import { readFileSync } from 'fs';

const require = createRequire(resolve(process.env.DUCKDB_DIR || '.') + '/');
const { DuckDBInstance } = require('@duckdb/node-api');
const [file, column, type, keys] = process.argv.slice(2);
const SQL_TYPE = { int32: 'INTEGER', int64: 'BIGINT', double: 'DOUBLE', string: 'VARCHAR' };
if (!keys || !SQL_TYPE[type]) {
  console.error('usage: probe.mjs FILE COLUMN int32|int64|double|string KEYS');
  process.exit(2);
}
const quote = (s) => "'" + s.replaceAll("'", "''") + "'";
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const lines = readFileSync(keys, 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = [];
for (const v of lines) {
  const rows = (await c.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes
      FROM parquet_bloom_probe(${quote(file)}, ${quote(column)}, ${quote(v)}::${SQL_TYPE[type]})
      ORDER BY row_group_id`)).getRowObjects();
  const may = rows.filter((r) => !r.bloom_filter_excludes).map((r) => String(r.row_group_id));
  out.push('[' + may.join(',') + ']');
}
process.stdout.write(out.join('\n') + '\n');
