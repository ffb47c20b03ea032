import Testing

@testable import HTTPServer

/// `HTTPHeaders` look-ups compare lengths and bytes without copying fields: every answer must be the one a plain
/// scan of the fields, lower-cased, gives.
@Suite("Header look-ups")
struct HeadersTests {
    /// What the look-ups must answer: the first field whose name matches, ignoring ASCII case.
    private func scan(_ headers: HTTPHeaders, _ name: String) -> String? {
        headers.fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    private func scanPrefix(_ headers: HTTPHeaders, _ prefix: String) -> Bool {
        headers.fields.contains { $0.name.lowercased().hasPrefix(prefix) }
    }

    @Test("A name is found in any case; an absent one is not")
    func lookups() {
        let h: HTTPHeaders = ["Host": "127.0.0.1:8080", "Content-Type": "application/json", "X-A": "1"]
        #expect(h["host"] == "127.0.0.1:8080")
        #expect(h["CONTENT-TYPE"] == "application/json")
        #expect(h["x-a"] == "1")
        #expect(h["Origin"] == nil)
        #expect(h["Accept"] == nil)
        #expect(h.values("HOST") == ["127.0.0.1:8080"])
        #expect(h.values("Origin") == [])
        #expect(h.contains("content-type"))
        #expect(!h.contains("content-length"))
    }

    @Test("Prefixes: one, two and more letters, any case")
    func prefixes() {
        var h: HTTPHeaders = ["Host": "a", "HINGE-Client": "ci"]
        #expect(h.containsName(withPrefix: "hinge-"))
        #expect(h.containsName(withPrefix: "h"))
        #expect(h.containsName(withPrefix: "ho"))
        #expect(!h.containsName(withPrefix: "x-"))
        #expect(!h.containsName(withPrefix: "o"))
        h.remove("hinge-client")
        #expect(!h.containsName(withPrefix: "hinge-"))
        #expect(h.containsName(withPrefix: "host"))
        #expect(!HTTPHeaders().containsName(withPrefix: "h"))
    }

    @Test("Adding, setting and removing keep the look-ups right")
    func mutations() {
        var h = HTTPHeaders()
        #expect(h["Origin"] == nil)
        h.add("Origin", "https://a.example")
        #expect(h["origin"] == "https://a.example")
        h.set("ORIGIN", "https://b.example")
        #expect(h.values("Origin") == ["https://b.example"])
        h.remove("origin")
        #expect(h["Origin"] == nil)
        #expect(h == HTTPHeaders())
        h.add("Vary", "Origin")
        h.add("vary", "Accept")
        #expect(h.values("VARY") == ["Origin", "Accept"])
        h.remove("Accept")  // absent: nothing changes
        #expect(h.count == 2)
    }

    @Test("Random names: every look-up agrees with a scan of the fields")
    func randomNames() {
        var rng = SplitMix(seed: 7)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        func name() -> String {
            String((0..<Int(rng.next() % 12 + 1)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<300 {
            var h = HTTPHeaders()
            for k in 0..<Int(rng.next() % 8) { h.add(name(), "v\(k)") }
            if rng.next() % 3 == 0, let victim = h.fields.first?.name { h.remove(victim.uppercased()) }
            let asked = h.fields.map(\.name).map { rng.next() % 2 == 0 ? $0.uppercased() : $0.lowercased() }
            for n in asked + (0..<8).map({ _ in name() }) {
                #expect(h[n] == scan(h, n), "\(n) in \(h.fields.map(\.name))")
                #expect(h.values(n).count == h.fields.filter { $0.name.lowercased() == n.lowercased() }.count)
            }
            for p in ["h", "hi", "hinge-", "x-", "co", "a"] {
                #expect(h.containsName(withPrefix: staticPrefix(p)) == scanPrefix(h, p))
            }
        }
    }

    private func staticPrefix(_ p: String) -> StaticString {
        switch p {
        case "h": return "h"
        case "hi": return "hi"
        case "hinge-": return "hinge-"
        case "x-": return "x-"
        case "co": return "co"
        default: return "a"
        }
    }
}

/// A small deterministic generator (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
