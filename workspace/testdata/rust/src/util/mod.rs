/// Exponential backoff in milliseconds for attempt n.
pub fn backoff(n: u32) -> u32 {
    100 * 2u32.pow(n)
}
