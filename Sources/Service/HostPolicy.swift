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

    init(bindHost: String, publicHosts: [String]) {
        var names = Set(publicHosts.map(HostPolicy.normalize))
        let bind = HostPolicy.normalize(bindHost)
        if !bind.isEmpty && !HostPolicy.isAddressLiteral(bind) { names.insert(bind) }
        self.names = names
    }

    static func normalize(_ name: String) -> String {
        var n = name.lowercased()
        while n.hasSuffix(".") { n.removeLast() }
        return n
    }

    /// Whether a request with this `Host` header is answered.
    func accepts(_ host: String?) -> Bool {
        guard let host else { return true }
        guard let name = HostPolicy.name(ofHostHeader: host) else { return false }
        if HostPolicy.isAddressLiteral(name) { return true }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return names.contains(name)
    }

    /// The host part of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`), normalized; nil when the
    /// header is not of that form.
    static func name(ofHostHeader header: String) -> String? {
        var h = Substring(header)
        if h.hasPrefix("[") {
            guard let close = h.firstIndex(of: "]") else { return nil }
            let rest = h[h.index(after: close)...]
            guard rest.isEmpty || isPort(rest.dropFirst()) && rest.first == ":" else { return nil }
            h = h[...close]
        } else if let colon = h.lastIndex(of: ":") {
            guard isPort(h[h.index(after: colon)...]) else { return nil }
            h = h[..<colon]
        }
        guard !h.isEmpty, h.utf8.count <= 253, h.unicodeScalars.allSatisfy(isHostCharacter) else { return nil }
        return normalize(String(h))
    }

    private static func isPort(_ s: Substring) -> Bool {
        !s.isEmpty && s.count <= 5 && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Letters, digits, `-`, `.`, `_`, and inside brackets the characters of an IPv6 literal.
    private static func isHostCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "[", "]", ":": return true
        default: return false
        }
    }

    /// An IPv4 dotted quad or a bracketed (or bare) IPv6 literal.
    static func isAddressLiteral(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") || name.contains(":") {
            let inner = name.hasPrefix("[") ? name.dropFirst().dropLast() : Substring(name)
            return !inner.isEmpty && inner.contains(":")
                && inner.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { p in
                !p.isEmpty && p.count <= 3 && p.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (Int(p) ?? 256) <= 255
            }
    }

    /// The 421 for a `Host` the server does not answer for.
    static func refusal(_ request: HTTPRequest) -> HTTPResponse {
        let host = String((request.headers["Host"] ?? "").unicodeScalars.prefix(100).map(Character.init))
        return Problem.response(
            status: .misdirectedRequest,
            detail: "This server does not answer for the host \"\(host)\": call it by its address, localhost, "
                + "or a name given to hinge serve with --public-host.",
            headers: ["Cache-Control": "no-store"])
    }
}
