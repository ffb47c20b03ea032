import HTTPServer

/// Which `Host` names the server answers for (docs/api.md#host-check): a defence against DNS rebinding, where
/// a page on `http://attacker.example:PORT` whose name the attacker points at 127.0.0.1 would otherwise be
/// this server's own origin, free to read the log and write profiles.
///
/// A request is answered when its `Host` (its port ignored) is
/// - an IP address literal (`127.0.0.1`, `[::1]`, `10.0.0.11`): an address cannot be re-pointed by DNS;
/// - `localhost` or a name under `.localhost`, which browsers never resolve through DNS;
/// - the name the server binds to (`--host`), when it is a name;
/// - a name given with `--public-host` (the name clients and load balancers use);
/// - absent (an HTTP/1.0 request): browsers always send one.
/// Anything else is answered `421 Misdirected Request` before any work, CORS or route. The same-origin
/// rule (`CORSPolicy`) compares `Origin` only with a `Host` that passed this check.
struct HostPolicy: Sendable, Equatable {
    /// Accepted names as compared: lower-case, without a trailing dot.
    let names: Set<String>
    /// `Host` values accepted as written, before any reading: the address and port the server listens on, as a
    /// client on the same machine sends them (`127.0.0.1:8080`, `localhost:8080`). Empty for a wildcard
    /// address or an ephemeral port.
    let exact: [String]

    init(bindHost: String, publicHosts: [String], port: Int = 0) {
        var names = Set(publicHosts.map(HostPolicy.normalize))
        let bind = HostPolicy.normalize(bindHost)
        // A bare IPv6 address (`::1`) has colons; anything else is kept when it is a name.
        if !bind.contains(":") && HostPolicy.kind(of: bind) == .name { names.insert(bind) }
        self.names = names
        let wildcard = bind == "0.0.0.0" || bind == "::" || bind == "[::]"
        if port > 0, !wildcard, !bind.contains(":") {
            exact = bind == "localhost" ? ["localhost:\(port)"] : ["\(bind):\(port)", "localhost:\(port)"]
        } else {
            exact = []
        }
    }

    static func normalize(_ name: String) -> String {
        var n = name.lowercased()
        while n.hasSuffix(".") { n.removeLast() }
        return n
    }

    /// Whether a request with this `Host` header is answered. An address (the usual `127.0.0.1:8080`) is
    /// recognised on the header's bytes without making a string; only a name is lower-cased and looked up.
    func accepts(_ host: String?) -> Bool {
        guard var host else { return true }
        for e in exact where e == host { return true }
        switch host.withUTF8({ HostPolicy.classify($0) }) {
        case .address: return true
        case .malformed: return false
        case .name:
            let name = HostPolicy.normalize(String(host.prefix { $0 != ":" }))  // without its port
            if name == "localhost" || name.hasSuffix(".localhost") { return true }
            return names.contains(name)
        }
    }

    enum HostKind: Equatable { case address, name, malformed }

    /// One pass over a `Host` header's bytes: an IPv4 address (four decimal parts up to 255) or a bracketed
    /// IPv6 address, each with an optional `:port`, is `.address`; letters, digits, `-`, `.`, `_` with an
    /// optional port is `.name`; anything else is `.malformed`.
    static func classify(_ b: UnsafeBufferPointer<UInt8>) -> HostKind {
        let n = b.count
        if n == 0 || n > 260 { return .malformed }
        if b[0] == UInt8(ascii: "[") {
            var i = 1
            var colons = 0
            while i < n && b[i] != UInt8(ascii: "]") {
                let c = b[i]
                if c == UInt8(ascii: ":") {
                    colons += 1
                } else if !isHexDigit(c) && c != UInt8(ascii: ".") {
                    return .malformed
                }
                i += 1
            }
            guard i < n, colons >= 2, i > 1 else { return .malformed }
            return isPortSuffix(b, from: i + 1) ? .address : .malformed
        }
        // One forward pass over the host up to its first `:`, then the port: an IPv4 address while only
        // digits (up to three, at most 255) and dots are met.
        var end = 0
        var parts = 1
        var value = 0
        var digits = 0
        var ipv4 = true
        while end < n {
            let c = b[end]
            let d = c &- UInt8(ascii: "0")
            if d < 10 {
                value = value &* 10 &+ Int(d)
                digits &+= 1
                if digits > 3 || value > 255 { ipv4 = false }
            } else if c == UInt8(ascii: ".") {
                if digits == 0 { ipv4 = false }
                parts &+= 1
                value = 0
                digits = 0
            } else if c == UInt8(ascii: ":") {
                break
            } else if isNameCharacter(c) {
                ipv4 = false
            } else {
                return .malformed
            }
            end &+= 1
        }
        if end == 0 || !isPortSuffix(b, from: end) { return .malformed }
        return ipv4 && parts == 4 && digits > 0 ? .address : .name
    }

    /// Nothing at `from`, or `:` and 1 to 5 digits to the end.
    private static func isPortSuffix(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Bool {
        if from == b.count { return true }
        guard b[from] == UInt8(ascii: ":"), b.count - from - 1 >= 1, b.count - from - 1 <= 5 else { return false }
        for i in (from + 1)..<b.count where b[i] < UInt8(ascii: "0") || b[i] > UInt8(ascii: "9") { return false }
        return true
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
            || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }

    private static func isNameCharacter(_ c: UInt8) -> Bool {
        (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z")) || c == UInt8(ascii: "-")
            || c == UInt8(ascii: "_") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".")
    }

    /// What `text` is, as a `Host` header would be classified.
    static func kind(of text: String) -> HostKind {
        var text = text
        return text.withUTF8 { classify($0) }
    }

    /// The 421 for a `Host` the server does not answer for.
    static func refusal(_ request: HTTPRequest) -> HTTPResponse {
        let host = String((request.headers["Host"] ?? "").unicodeScalars.prefix(100).map(Character.init))
        return RouteError(
            status: .misdirectedRequest,
            detail: "This server does not answer for the host \"\(host)\": call it by its address, localhost, "
                + "or a name given to hinge serve with --public-host.",
            headers: ["Cache-Control": "no-store"]
        ).response()
    }
}
