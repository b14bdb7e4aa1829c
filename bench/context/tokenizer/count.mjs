// Counts real BPE tokens for the context benchmark's token calibration.
// Reads JSON lines {"group": "...", "text": "..."} on stdin and prints one
// JSON object: for each group, its UTF-8 bytes and its token counts under
// cl100k_base and o200k_base. The encoders embed their ranks: no network.
//
//	npm ci && go run ./bench/context -calibrate
import { createInterface } from "node:readline";
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";

// Special-token text in a source file is just text.
const asText = { disallowedSpecial: new Set() };
const totals = {};
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line) continue;
  const { group, text } = JSON.parse(line);
  const t = (totals[group] ??= { bytes: 0, cl100k: 0, o200k: 0 });
  t.bytes += Buffer.byteLength(text, "utf8");
  t.cl100k += cl100k.encode(text, asText).length;
  t.o200k += o200k.encode(text, asText).length;
}
process.stdout.write(JSON.stringify(totals) + "\n");
