// Writes issue 33's colliding file with DuckDB: a top-level column named
// "a.b" and a struct a with a field b, both with Bloom filters.
//   node tests/duckdb/dots.mjs OUT.parquet
import { createRequire } from 'module';
import { resolve } from 'path';

const require = createRequire(resolve(process.env.DUCKDB_DIR || '.') + '/');
const { DuckDBInstance } = require('@duckdb/node-api');
const out = process.argv[2];
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
await c.run(`COPY (SELECT 'top-' || (i % 50) AS "a.b", {'b': 'nested-' || (i % 50)} AS a
  FROM range(1000) t(i)) TO '${out.replace(/'/g, "''")}' (FORMAT parquet, WRITE_BLOOM_FILTER true)`);
