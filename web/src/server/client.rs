//! Who is asking: the client's address, seen through the reverse proxies the server trusts.
//!
//! Behind a proxy (Caddy, nginx) every request comes from the proxy's address, so the login
//! throttle would count the whole club as one client, and one guesser could lock everyone out.
//! The proxy names the client in a header; but any client can send that header too, so it is
//! believed only from a peer in `--trusted-proxy`, and read from the right: each trusted proxy
//! appends the address it heard from, so the first address from the right that is not a
//! trusted proxy is the one that reached the trusted ones. Whatever a client wrote to the left
//! of it is ignored.

use std::net::IpAddr;

use actix_web::http::header::HeaderMap;
use actix_web::HttpRequest;
use ipnet::IpNet;

use super::config::ForwardedHeader;

/// The proxies whose forwarding header is believed, and which header they set.
#[derive(Clone, Debug, Default)]
pub struct Proxies {
    pub trusted: Vec<IpNet>,
    pub header: ForwardedHeader,
}

/// The client of a request, and whether it is known for certain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    pub address: IpAddr,
    /// False when a trusted proxy's header did not name the client plainly (garbled, not
    /// text, `unknown`, obfuscated): `address` is then the last hop known, a proxy's — good
    /// enough to count logins by (a client that garbles its header is counted with others who
    /// do), never to grant anything by.
    pub certain: bool,
}

impl Proxies {
    /// The client of `req`: its peer, or — when the peer is a trusted proxy — the address the
    /// proxies name. None when the peer is unknown (a test request).
    pub fn client(&self, req: &HttpRequest) -> Option<Client> {
        let peer = req.peer_addr()?.ip();
        Some(self.client_of(peer, req.headers()))
    }

    /// The client behind `peer`, given the request's headers.
    pub fn client_of(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        let peer = canonical(peer);
        if !self.trusts(peer) {
            return Client {
                address: peer,
                certain: true,
            };
        }
        let mut hops = Vec::new();
        let name = match self.header {
            ForwardedHeader::XForwardedFor => "x-forwarded-for",
            ForwardedHeader::Forwarded => "forwarded",
        };
        for value in headers.get_all(name) {
            let Ok(value) = value.to_str() else {
                // Not text: nothing in it can be believed, nor anything before it.
                hops.clear();
                hops.push(None);
                continue;
            };
            for element in value.split(',') {
                hops.push(match self.header {
                    ForwardedHeader::XForwardedFor => node(element),
                    ForwardedHeader::Forwarded => forwarded_for(element),
                });
            }
        }
        let mut client = Client {
            address: peer,
            certain: true,
        };
        for hop in hops.into_iter().rev() {
            match hop {
                // A hop that names no address: the one who handed it on is the last known,
                // and the client is not known for certain.
                None => {
                    client.certain = false;
                    break;
                }
                Some(address) => {
                    client.address = address;
                    if !self.trusts(address) {
                        break;
                    }
                }
            }
        }
        client
    }

    fn trusts(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        self.trusted.iter().any(|net| net.contains(&address))
    }
}

/// An IPv4 address mapped into IPv6 (`::ffff:10.0.0.1`, as a dual-stack socket reports it) is
/// the IPv4 address.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// One `for=` of a `Forwarded` element (RFC 7239 §4): `for=192.0.2.60;proto=https`.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("for")
            .then(|| node(value.trim().trim_matches('"')))?
    })
}

/// An address as proxies write it: `192.0.2.60`, `192.0.2.60:4711`, `2001:db8::1`,
/// `[2001:db8::1]:4711`.
fn node(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    if let Ok(address) = text.parse::<IpAddr>() {
        return Some(canonical(address));
    }
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, _) = rest.split_once(']')?;
        return inside.parse::<IpAddr>().ok().map(canonical);
    }
    let (host, port) = text.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn proxies(header: ForwardedHeader) -> Proxies {
        Proxies {
            trusted: vec!["10.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()],
            header,
        }
    }

    fn headers(name: &'static str, values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for v in values {
            map.append(
                HeaderName::from_static(name),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        map
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_peer_that_is_no_trusted_proxy_is_the_client_whatever_it_says() {
        let p = proxies(ForwardedHeader::XForwardedFor);
        let h = headers("x-forwarded-for", &["1.2.3.4"]);
        assert_eq!(
            p.client_of(ip("203.0.113.9"), &h).address,
            ip("203.0.113.9")
        );
        assert_eq!(
            Proxies::default().client_of(ip("10.0.0.1"), &h).address,
            ip("10.0.0.1")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_client_is_the_first_untrusted_address_from_the_right() {
        let p = proxies(ForwardedHeader::XForwardedFor);
        // The client forged "6.6.6.6"; the outer proxy 10.0.0.2 appended the real one.
        let h = headers("x-forwarded-for", &["6.6.6.6, 198.51.100.7", "10.0.0.2"]);
        assert_eq!(p.client_of(ip("10.0.0.1"), &h).address, ip("198.51.100.7"));
        // No header: the proxy itself.
        assert_eq!(
            p.client_of(ip("10.0.0.1"), &HeaderMap::new()).address,
            ip("10.0.0.1")
        );
        // A dual-stack socket's mapped address is the IPv4 one, trusted as such.
        let mapped = ip("::ffff:10.0.0.1");
        assert_eq!(p.client_of(mapped, &h).address, ip("198.51.100.7"));
        // A port, and IPv6 in brackets.
        let h = headers("x-forwarded-for", &["[2001:db8::5]:4711"]);
        assert_eq!(p.client_of(ip("::1"), &h).address, ip("2001:db8::5"));
        let h = headers("x-forwarded-for", &["198.51.100.7:5000"]);
        assert_eq!(p.client_of(ip("::1"), &h).address, ip("198.51.100.7"));
    }

    #[test]
    fn a_garbled_hop_stops_the_walk_at_the_last_address_known() {
        let p = proxies(ForwardedHeader::XForwardedFor);
        let h = headers("x-forwarded-for", &["198.51.100.7, nonsense, 10.0.0.3"]);
        let client = p.client_of(ip("10.0.0.1"), &h);
        assert_eq!(client.address, ip("10.0.0.3"));
        assert!(
            !client.certain,
            "a proxy standing in for a client is not the client"
        );
        let h = headers("x-forwarded-for", &["198.51.100.7, 10.0.0.3"]);
        assert!(p.client_of(ip("10.0.0.1"), &h).certain);
    }

    #[test]
    fn the_forwarded_header_is_read_when_the_proxies_set_it_and_only_then() {
        let p = proxies(ForwardedHeader::Forwarded);
        let h = headers(
            "forwarded",
            &[r#"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, For=10.0.0.2"#],
        );
        assert_eq!(
            p.client_of(ip("10.0.0.1"), &h).address,
            ip("2001:db8:cafe::17")
        );
        let h = headers("forwarded", &["for=unknown"]);
        assert_eq!(p.client_of(ip("10.0.0.1"), &h).address, ip("10.0.0.1"));
        // Set to read `Forwarded`, an X-Forwarded-For is a client's own words.
        let h = headers("x-forwarded-for", &["198.51.100.7"]);
        assert_eq!(p.client_of(ip("10.0.0.1"), &h).address, ip("10.0.0.1"));
    }
}
