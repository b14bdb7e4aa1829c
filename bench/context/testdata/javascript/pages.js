'use strict';

const { Range, parseRange } = require('./range');

// Pages of a document selected by a spec such as "1..3,7".
function selectPages(spec, pageCount) {
  const all = new Range(1, pageCount);
  const picked = new Set();
  for (const part of spec.split(',')) {
    const range = part.includes('..') ? parseRange(part) : new Range(Number(part), Number(part));
    for (const page of range.values()) {
      if (all.includes(page)) {
        picked.add(page);
      }
    }
  }
  return [...picked].sort((a, b) => a - b);
}

function describe(spec, pageCount) {
  const pages = selectPages(spec, pageCount);
  return `${pages.length} of ${pageCount} pages`;
}

module.exports = { selectPages, describe };
