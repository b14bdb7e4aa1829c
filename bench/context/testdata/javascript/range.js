'use strict';

/** An inclusive range of integers. */
class Range {
  constructor(low, high) {
    this.low = Math.min(low, high);
    this.high = Math.max(low, high);
  }

  includes(n) {
    return n >= this.low && n <= this.high;
  }

  get length() {
    return this.high - this.low + 1;
  }

  *values() {
    for (let n = this.low; n <= this.high; n++) {
      yield n;
    }
  }
}

function parseRange(text) {
  const m = /^(-?\d+)\.\.(-?\d+)$/.exec(text.trim());
  if (!m) {
    throw new TypeError(`not a range: ${text}`);
  }
  return new Range(Number(m[1]), Number(m[2]));
}

exports.Range = Range;
exports.parseRange = parseRange;
