use crate::util::backoff;

/// A connection to a peer.
pub struct Conn {
    pub addr: String,
    retries: u32,
}

impl Conn {
    pub fn dial(addr: &str) -> Conn {
        let wait = backoff(1);
        Conn { addr: addr.to_string(), retries: wait }
    }
}
