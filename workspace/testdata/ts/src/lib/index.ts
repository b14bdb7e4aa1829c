// log prints a message with a prefix.
export function log(msg: unknown): void {
  console.log("[shapes]", msg);
}
