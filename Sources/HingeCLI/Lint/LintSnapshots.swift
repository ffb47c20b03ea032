import JSON
import LayoutEngine

/// Placement snapshots (docs/lint.md#snapshots): one file per scene under the snapshot directory, at the scene's path
/// relative to the project root, holding each combination's placements — id, kind, status, style, frame, region,
/// resolved placement, detents with their heights, selected detent — pretty-printed with sorted keys. A later run
/// compares every number with `tolerance` and every other value exactly, and reports each difference as a
/// `placement-changed` finding at the resolution's pointer (`/placements/0/frame/y`), placed at the presentation in
/// the scene file.
struct LintSnapshots: Sendable {
    /// The snapshot directory (absolute).
    let directory: String
    let tolerance: Double
    /// `--update-snapshots`: write instead of compare.
    let update: Bool
    /// No snapshot is written outside it, whatever symbolic link the snapshot directory holds (docs/lint.md#writes).
    var boundary: String? = nil

    static let members = ["detents", "frame", "id", "kind", "placement", "region", "selectedDetent", "status", "style"]
    /// A snapshot file is read whole; the largest one a scene can produce is far below.
    static let maxBytes = 64 << 20

    /// The snapshot file of the scene at `key` (`..` segments of a scene outside the root become `__`).
    func path(for key: String) -> String {
        directory + "/" + key.split(separator: "/").map { $0 == ".." ? "__" : String($0) }.joined(separator: "/")
    }

    /// One combination's entry: its placements, or null when the scene is refused in it.
    static func entry(_ resolution: Resolution?) -> JSONValue {
        guard let resolution else { return .object(["placements": .null]) }
        let placements: [JSONValue] = resolution.placements.map { p in
            guard case .object(let all) = p.json else { return .null }
            var kept = JSONObject(all.members.filter { members.contains($0.key) })
            // Only where the sheet ended up: what was asked is in the scene.
            if case .object(let choice)? = kept["placement"] { kept["placement"] = choice["resolved"] ?? .null }
            return .object(kept)
        }
        return .object(["placements": .array(placements)])
    }

    /// A difference between a snapshot and this run.
    struct Change: Equatable {
        /// Into the resolution: `/placements/0/frame/y`; empty for the whole scene or combination.
        var pointer: String
        /// The presentation in the scene the change is shown at.
        var location: String
        var combination: Int?
        var message: String
    }

    /// What checking a scene's snapshot gave: its changes, or the file written.
    struct Outcome {
        var changes: [Change] = []
        var written = false
        var error: String?
    }

    /// Compares (or, when updating, writes) the snapshot of the scene at `key`, whose combinations (keys, in order)
    /// resolved to `entries`.
    func check(key: String, combinations: [String], entries: [JSONValue]) -> Outcome {
        var combined = JSONObject()
        for (k, e) in zip(combinations, entries) { combined[k] = e }
        let document = JSONValue.object(["combinations": .object(combined), "file": .string(key)])
        let file = path(for: key)
        var outcome = Outcome()
        // Neither read nor written through a symbolic link out of the project (docs/lint.md#writes).
        if let boundary, !LintRepository.resolvesInside(file, boundary) {
            outcome.error = LintSetup.outside("the snapshot", file, boundary: boundary, cwd: boundary)
            return outcome
        }
        let old = LintFileSystem.kind(file) == .file ? LintFileSystem.read(file, limit: Self.maxBytes) : nil
        if update {
            let bytes = JSONWriter.encode(document, options: .pretty) + [0x0A]
            if case .bytes(let existing)? = old, existing == bytes { return outcome }
            do throws(CLIError) {
                try LintFileSystem.writeAtomically(bytes, to: file)
                outcome.written = true
            } catch {
                outcome.error = error.message
            }
            return outcome
        }
        guard case .bytes(let bytes)? = old else {
            let reason = old == nil ? "no snapshot of this scene" : "the snapshot \(file) cannot be read"
            outcome.changes.append(
                Change(
                    pointer: "", location: "", combination: nil,
                    message: "\(reason): run hinge lint --update-snapshots to record it"))
            return outcome
        }
        guard let recorded = try? JSONParser.parse(bytes, options: .init(maxSize: Self.maxBytes)),
            case .object(let table)? = recorded["combinations"]
        else {
            outcome.changes.append(
                Change(
                    pointer: "", location: "", combination: nil,
                    message: "the snapshot \(file) is not a snapshot: run hinge lint --update-snapshots to rewrite it"))
            return outcome
        }
        for (i, (k, entry)) in zip(combinations, entries).enumerated() {
            guard let before = table[k] else {
                outcome.changes.append(
                    Change(
                        pointer: "", location: "", combination: i,
                        message: "no snapshot of this combination: run hinge lint --update-snapshots to record it"))
                continue
            }
            var found: [(String, JSONValue?, JSONValue?)] = []
            LintSnapshots.differences(before, entry, at: "", tolerance: tolerance, into: &found)
            for (pointer, was, now) in found {
                outcome.changes.append(
                    Change(
                        pointer: pointer, location: LintSnapshots.scenePointer(for: pointer), combination: i,
                        message: LintSnapshots.message(pointer, was, now, placements: entry, before: before)))
            }
        }
        return outcome
    }

    /// The differences of two values, at the deepest pointer where they differ: numbers within `tolerance` are equal.
    static func differences(
        _ a: JSONValue, _ b: JSONValue, at pointer: String, tolerance: Double,
        into out: inout [(String, JSONValue?, JSONValue?)]
    ) {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if !(abs(x - y) <= tolerance) { out.append((pointer, a, b)) }
        case (.object(let x), .object(let y)):
            var keys = x.keys
            for k in y.keys where x[k] == nil { keys.append(k) }
            keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for k in keys {
                let child = pointer + "/" + JSONPointer([k]).description.dropFirst()
                switch (x[k], y[k]) {
                case (let u?, let v?): differences(u, v, at: child, tolerance: tolerance, into: &out)
                case (let u, let v): out.append((child, u, v))
                }
            }
        case (.array(let x), .array(let y)):
            for i in 0..<max(x.count, y.count) {
                let child = pointer + "/" + String(i)
                if i < x.count, i < y.count {
                    differences(x[i], y[i], at: child, tolerance: tolerance, into: &out)
                } else {
                    out.append((child, i < x.count ? x[i] : nil, i < y.count ? y[i] : nil))
                }
            }
        default:
            if a != b { out.append((pointer, a, b)) }
        }
    }

    /// `/placements/2/frame/y` is shown at `/presentations/2`: placements are in the order of the presentations.
    static func scenePointer(for pointer: String) -> String {
        let tokens = JSONTextScanner.tokens(of: pointer)
        guard tokens.count >= 2, tokens[0] == "placements", Int(tokens[1]) != nil else { return "" }
        return "/presentations/\(tokens[1])"
    }

    /// `"editor" frame/y moved from 460.5 to 440.5`, with the placement's id when the pointer is inside one.
    static func message(
        _ pointer: String, _ was: JSONValue?, _ now: JSONValue?, placements: JSONValue, before: JSONValue
    )
        -> String
    {
        let tokens = JSONTextScanner.tokens(of: pointer)
        var subject = pointer
        if tokens.count >= 2, tokens[0] == "placements", let i = Int(tokens[1]) {
            let id = placements["placements"]?[i]?["id"]?.stringValue ?? before["placements"]?[i]?["id"]?.stringValue
            let rest = tokens.dropFirst(2).joined(separator: "/")
            subject = (id.map { "placement \"\($0)\"" } ?? "placement \(i)") + (rest.isEmpty ? "" : " " + rest)
        }
        return "\(subject) changed from \(text(was)) to \(text(now)) (\(pointer)); --update-snapshots accepts it"
    }

    private static func text(_ v: JSONValue?) -> String {
        guard let v else { return "absent" }
        let s = JSONWriter.string(v)
        return s.count > 120 ? String(s.prefix(117)) + "..." : s
    }
}
