import Glibc
import JSON
import LayoutEngine

/// The lint's cache of Swift results (docs/lint.md#cache): the findings of every scene read from a set of Swift
/// sources, before the baseline, stored under a key made of each file's content digest, the configuration, the
/// flags that change findings, the device catalog and the engine (its version and the executable's identity). A
/// second run over unchanged files reads them back and parses nothing.
///
/// Entries live in `$XDG_CACHE_HOME/hinge/lint`, else `$HOME/.cache/hinge/lint`: one JSON file per key, written
/// through a temporary file renamed over it, at most `maxEntries` of them (the least recently used are removed), each
/// at most `maxEntryBytes`. An entry that cannot be read, is not JSON, or holds another key is ignored: the run
/// computes its findings again and writes the entry anew.
struct LintCache {
    let directory: String
    /// What every key of this run starts with: the configuration, the flags, the catalog and the engine.
    let salt: String

    static let maxEntries = 16
    static let maxEntryBytes = 64 << 20
    static let format = "hinge-lint-cache 1"

    /// The cache directory the environment gives, nil when neither `XDG_CACHE_HOME` nor `HOME` is set.
    static func directory(variable: (String) -> String?) -> String? {
        if let xdg = variable("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return LintPaths.normalize(xdg + "/hinge/lint") }
        if let home = variable("HOME"), home.hasPrefix("/") { return LintPaths.normalize(home + "/.cache/hinge/lint") }
        return nil
    }

    /// The executable's identity (size and modification time): a rebuilt binary, whose rules may differ under the same
    /// engine version, never reads what another build stored.
    static var executableIdentity: String {
        var st = stat()
        guard stat("/proc/self/exe", &st) == 0 else { return "unknown" }
        return "\(st.st_size)-\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
    }

    /// The key of a set of files, described by `parts` (each file's paths and content digest, in order).
    func key(_ parts: [String]) -> String {
        var digest = LintDigest()
        digest.add(Self.format)
        digest.add(salt)
        for p in parts { digest.add(p) }
        return digest.hex
    }

    private func path(_ key: String) -> String { directory + "/" + key + ".json" }

    /// The reports stored under `key`, each with the absolute path of the file it belongs to; nil when there is no
    /// usable entry.
    func load(_ key: String) -> [(path: String, report: LintFileReport)]? {
        let file = path(key)
        guard case .bytes(let bytes) = LintFileSystem.read(file, limit: Self.maxEntryBytes),
            let root = try? JSONParser.parse(bytes, options: .init(maxDepth: 8, maxSize: Self.maxEntryBytes)),
            root["key"]?.stringValue == key, let list = root["reports"]?.arrayValue
        else { return nil }
        var out: [(path: String, report: LintFileReport)] = []
        for item in list {
            guard let entry = Self.report(item) else { return nil }
            out.append(entry)
        }
        utimensat(AT_FDCWD, file, nil, 0)  // most recently used
        return out
    }

    /// Stores `reports` under `key`, then removes the least recently used entries beyond `maxEntries`. A cache that
    /// cannot be written only costs the next run its time: nothing is reported.
    func store(_ key: String, _ reports: [(path: String, report: LintFileReport)]) {
        let value: JSONValue = .object([
            "key": .string(key), "reports": .array(reports.map { Self.json($0.path, $0.report) }),
        ])
        let bytes = JSONWriter.encode(value)
        guard bytes.count <= Self.maxEntryBytes else { return }
        guard (try? LintFileSystem.writeAtomically(bytes, to: path(key))) != nil else { return }
        prune()
    }

    private func prune() {
        guard let dir = opendir(directory) else { return }
        var entries: [(name: String, time: Int)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".json") else { continue }
            var st = stat()
            if stat(directory + "/" + name, &st) == 0 {
                entries.append((name, Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)))
            }
        }
        closedir(dir)
        guard entries.count > Self.maxEntries else { return }
        entries.sort { $0.time < $1.time }
        for e in entries.prefix(entries.count - Self.maxEntries) { unlink(directory + "/" + e.name) }
    }

    // MARK: Reports as JSON

    static func json(_ path: String, _ r: LintFileReport) -> JSONValue {
        var o: JSONObject = [
            "path": .string(path), "displayPath": .string(r.displayPath), "key": .string(r.key),
            "combinations": .array(
                r.combinations.map { c in
                    .array(
                        ([c.device, c.display, c.posture, c.orientation, c.direction]
                            + (c.dynamicTypeSize.map { [$0] } ?? []))
                            .map(JSONValue.string))
                }),
            "findings": .array(
                r.findings.map { f in
                    .array([
                        .string(f.ruleID), .string(f.severity.rawValue), .string(f.pointer),
                        .number(Double(f.position.line)), .number(Double(f.position.column)),
                        .number(Double(f.position.endLine)), .number(Double(f.position.endColumn)),
                        f.combination.map { .number(Double($0)) } ?? .null, .string(f.message),
                    ])
                }),
        ]
        if let u = r.unreadable { o["unreadable"] = .string(u) }
        return .object(o)
    }

    static func report(_ v: JSONValue) -> (path: String, report: LintFileReport)? {
        guard let path = v["path"]?.stringValue, let display = v["displayPath"]?.stringValue,
            let key = v["key"]?.stringValue, let combinations = v["combinations"]?.arrayValue,
            let findings = v["findings"]?.arrayValue
        else { return nil }
        var r = LintFileReport(displayPath: display, key: key)
        r.unreadable = v["unreadable"]?.stringValue
        for c in combinations {
            guard let a = c.arrayValue, a.count == 5 || a.count == 6 else { return nil }
            let s = a.compactMap(\.stringValue)
            guard s.count == a.count else { return nil }
            r.combinations.append(
                LintCombination(
                    device: s[0], display: s[1], posture: s[2], orientation: s[3], direction: s[4],
                    dynamicTypeSize: s.count == 6 ? s[5] : nil))
        }
        for f in findings {
            guard let a = f.arrayValue, a.count == 9, let rule = a[0].stringValue,
                let index = LintRules.index(of: rule), let severity = a[1].stringValue.flatMap(LintSeverity.init),
                let pointer = a[2].stringValue, let line = a[3].exactInteger, let column = a[4].exactInteger,
                let endLine = a[5].exactInteger, let endColumn = a[6].exactInteger, let message = a[8].stringValue
            else { return nil }
            let combination = a[7].exactInteger
            if a[7] != .null && (combination.map { !r.combinations.indices.contains($0) } ?? true) { return nil }
            r.findings.append(
                LintFinding(
                    ruleIndex: index, severity: severity, pointer: pointer,
                    position: SourcePosition(line: line, column: column, endLine: endLine, endColumn: endColumn),
                    combination: combination, message: message))
        }
        r.render()
        return (path, r)
    }
}

/// A 128-bit digest: two FNV-1a hashes of 64 bits with different offset bases, over each part and its length (so
/// parts never run into each other). Identifies content for the cache; it is no defence against a forged file.
struct LintDigest {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ s: String) {
        var s = s
        s.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let prime: UInt64 = 0x100_0000_01b3
        var a = self.a
        var b = self.b
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* prime
            b = (b ^ UInt64(byte)) &* prime
        }
        for shift in stride(from: 0, to: 64, by: 8) {
            let byte = UInt64(truncatingIfNeeded: bytes.count >> shift) & 0xff
            a = (a ^ byte) &* prime
            b = (b ^ byte) &* prime
        }
        self.a = a
        self.b = b
    }

    var hex: String {
        func h(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return h(a) + h(b)
    }

    /// The digest of `bytes` alone.
    static func of(_ bytes: [UInt8]) -> String {
        var d = LintDigest()
        bytes.withUnsafeBytes { d.add($0) }
        return d.hex
    }
}
