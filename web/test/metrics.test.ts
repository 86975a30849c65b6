import { test } from "node:test";
import assert from "node:assert/strict";
import { byLabel, parseMetrics, quantile, value } from "../src/metrics";

const text = `# HELP hotplex_sessions Sessions in the pool by status.
# TYPE hotplex_sessions gauge
hotplex_sessions{status="ready"} 2
hotplex_sessions{status="busy"} 1
hotplex_danger_blocks_total{category="file_delete"} 3
hotplex_danger_blocks_total{category="we\\"ird"} 1
hotplex_turns_total 10
hotplex_turn_duration_seconds_bucket{le="0.1"} 2
hotplex_turn_duration_seconds_bucket{le="0.5"} 6
hotplex_turn_duration_seconds_bucket{le="1"} 10
hotplex_turn_duration_seconds_bucket{le="+Inf"} 10
hotplex_turn_duration_seconds_sum 4.2
hotplex_turn_duration_seconds_count 10
`;

test("samples by name and label", () => {
  const m = parseMetrics(text);
  assert.deepEqual([...byLabel(m, "hotplex_sessions", "status")], [["ready", 2], ["busy", 1]]);
  assert.deepEqual([...byLabel(m, "hotplex_danger_blocks_total", "category")], [["file_delete", 3], [`we"ird`, 1]]);
  assert.equal(value(m, "hotplex_turns_total"), 10);
  assert.equal(value(m, "missing"), 0);
});

test("quantiles interpolate inside the bucket", () => {
  const m = parseMetrics(text);
  assert.equal(quantile(m, "hotplex_turn_duration_seconds", 0.5), 0.1 + (0.4 * 3) / 4); // rank 5 in (0.1, 0.5]
  assert.equal(quantile(m, "hotplex_turn_duration_seconds", 0.1), 0.05); // rank 1 in (0, 0.1]
  assert.equal(quantile(m, "hotplex_turn_duration_seconds", 1), 1);
});

test("beyond the last bound, and no observations", () => {
  const over = parseMetrics(`h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 4\n`);
  assert.equal(quantile(over, "h", 0.9), 1);
  assert.ok(Number.isNaN(quantile(parseMetrics(`h_bucket{le="1"} 0\nh_bucket{le="+Inf"} 0\n`), "h", 0.5)));
  assert.ok(Number.isNaN(quantile([], "h", 0.5)));
});
