mod net;
pub mod util;

pub use net::Conn;
