// Waiting helpers the driver's scenarios share.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// until calls cond every 100 ms until it resolves true, and throws
// "timed out: <what>" once deadlineMs have passed without.
async function until(what, deadlineMs, cond) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (await cond()) {
      return true;
    }
    if (Date.now() > end) {
      throw new Error(`timed out: ${what}`);
    }
    await sleep(100);
  }
}

module.exports = { sleep, until };
